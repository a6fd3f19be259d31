import { plural } from '@agent-tools/core/internal';
import { AstError } from '../errors.js';
import { LANGUAGE_IDS, type LanguageSpec, languageOfFile, languageSpec } from '../languages.js';
import { walkFiles } from './walk.js';

/** The language a search uses, and how it was chosen when the caller did not name it for a folder. */
export interface PickedLanguage {
  readonly spec: LanguageSpec;
  /** Set when the language was inferred from a folder's files: what the answer says about it. */
  readonly inferred?: string;
}

/** Languages of documents rather than code: left out when a folder's language is inferred from its code. */
const DOCUMENTS = new Set(['markdown', 'json', 'html', 'css']);

/** Languages a file of the other may legitimately be searched as (C headers as C++, JSX in .js files...). */
const COMPATIBLE: Readonly<Record<string, readonly string[]>> = {
  c: ['cpp'],
  cpp: ['c'],
  javascript: ['typescript', 'tsx'],
  typescript: ['tsx'],
  tsx: ['typescript'],
};

/**
 * Resolves `language` for a search, with the near misses a model makes named: a file whose extension belongs to
 * another language than the one given ("help.py is a .py file; did you mean python?"), and a folder searched
 * without a language, which is inferred when its files are of one language only (and refused, naming the
 * languages it holds, otherwise).
 */
export async function pickLanguage(
  cwd: string,
  language: string | undefined,
  path: string,
  absolute: string,
  isFile: boolean,
  signal?: AbortSignal,
): Promise<PickedLanguage> {
  const ofFile = isFile ? languageOfFile(path) : undefined;
  if (language?.trim()) {
    const spec = languageSpec(language);
    if (ofFile && ofFile.id !== spec.id && !(COMPATIBLE[ofFile.id] ?? []).includes(spec.id)) {
      const ext = path.slice(path.lastIndexOf('.'));
      throw new AstError(
        'unknown_language',
        `${path} is a ${ext} file, which is ${ofFile.id}, but language is "${language.trim()}": did you mean ${ofFile.id}? Pass language "${ofFile.id}" (or leave it out for a file), or another path.`,
      );
    }
    return { spec };
  }
  if (isFile) {
    if (ofFile) return { spec: ofFile };
    throw new AstError(
      'unknown_language',
      `The language of "${path}" cannot be inferred from its extension. Pass \`language\`, one of: ${LANGUAGE_IDS.join(', ')}.`,
    );
  }
  const walked = await walkFiles(cwd, absolute, (name) => languageOfFile(name) !== undefined, signal);
  const counts = new Map<string, number>();
  for (const file of walked.files) {
    const id = languageOfFile(file)?.id;
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const where = path === '.' || path === '' ? 'the working directory' : `${path}/`;
  const found = [...counts].sort((a, b) => b[1] - a[1]);
  // Documents beside the code (a README.md, a package.json) do not make a folder of several languages.
  const code = found.filter(([id]) => !DOCUMENTS.has(id));
  const only = found.length === 1 ? found[0] : code.length === 1 ? code[0] : undefined;
  if (only) {
    return {
      spec: languageSpec(only[0]),
      inferred: `Language inferred: ${only[0]}, the only language of the source files under ${where} (${plural(only[1], 'file')}${code.length < found.length && found.length > 1 ? `; documents aside: ${found.filter(([id]) => DOCUMENTS.has(id)).map(([id, n]) => `${n} ${id}`).join(', ')}` : ''}).`,
    };
  }
  const held = found.length
    ? ` It holds ${found.map(([id, n]) => `${id} (${plural(n, 'file')})`).join(', ')}.`
    : ' It holds no source file of a supported language.';
  throw new AstError(
    'unknown_language',
    `"${path || '.'}" is a directory and the language was not given.${held} Pass \`language\`, one of: ${LANGUAGE_IDS.join(', ')}.`,
  );
}
