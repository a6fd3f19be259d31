import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { AstError } from '../errors.js';
import type { LanguageSpec } from '../languages.js';
import { allocateScannerState } from './scanner-state.js';

const require = createRequire(import.meta.url);

/** The wasm file of a language's grammar: in `grammarDir` when one is given, else in the language's npm package. */
export function grammarFile(spec: LanguageSpec, grammarDir: string | undefined): string {
  const name = `tree-sitter-${spec.grammar}.wasm`;
  if (grammarDir) return join(grammarDir, name);
  return join(dirname(require.resolve(`${spec.grammarPackage}/package.json`)), spec.grammarPath, name);
}

let initialized: Promise<void> | undefined;

/** web-tree-sitter's wasm memory page. */
const PAGE = 64 * 1024;

/**
 * Loads web-tree-sitter's own wasm once per thread; the first caller's `initialMemory` (bytes) sizes its wasm memory
 * from the start (see {@link TreeSitterRuntime}).
 */
function initParser(initialMemory: number | undefined): Promise<void> {
  initialized ??= Parser.init(initialMemory ? { INITIAL_MEMORY: Math.ceil(initialMemory / PAGE) * PAGE } : undefined);
  return initialized;
}

/** The characters handed to tree-sitter per read; a full `text.slice(index)` per chunk would be quadratic. */
const CHUNK = 4096;

/**
 * One thread's tree-sitter: grammars loaded on first use, one parser per language. Parsing is synchronous
 * inside, so one runtime serves one thread.
 */
export class TreeSitterRuntime {
  readonly #grammarDir: string | undefined;
  readonly #languages = new Map<string, Promise<Language>>();
  readonly #parsers = new Map<string, Parser>();

  readonly #initialMemory: number | undefined;

  /**
   * `grammarDir` replaces the npm packages as the place of every `tree-sitter-<grammar>.wasm`. `initialMemory`: bytes
   * of wasm memory to start with instead of 32 MiB, for a thread about to keep many trees (only the thread's first
   * runtime sets it). Growing the memory step by step while trees pile up cost a first search over 3000 files about
   * a tenth of its CPU (V8 collects garbage on each growth); pages never written take no memory.
   */
  constructor(grammarDir?: string, initialMemory?: number) {
    this.#grammarDir = grammarDir;
    this.#initialMemory = initialMemory;
  }

  /** The loaded grammar of a language. */
  async language(spec: LanguageSpec): Promise<Language> {
    let loading = this.#languages.get(spec.grammar);
    if (!loading) {
      let file = `tree-sitter-${spec.grammar}.wasm`;
      loading = initParser(this.#initialMemory)
        .then(() => {
          file = grammarFile(spec, this.#grammarDir);
          return readFile(file);
        })
        .then((bytes) => Language.load(allocateScannerState(bytes)))
        .catch((error: unknown) => {
          this.#languages.delete(spec.grammar);
          throw new AstError('grammar_unavailable', `The ${spec.id} grammar could not be loaded from ${file}.`, {
            cause: error,
          });
        });
      this.#languages.set(spec.grammar, loading);
    }
    return loading;
  }

  /** The parser of a language, its grammar loaded. */
  async parser(spec: LanguageSpec): Promise<Parser> {
    const language = await this.language(spec);
    let parser = this.#parsers.get(spec.grammar);
    if (!parser) {
      parser = new Parser();
      parser.setLanguage(language);
      this.#parsers.set(spec.grammar, parser);
    }
    return parser;
  }

  /**
   * Parses text. Returns `undefined` when the parse was stopped: past `deadline` (ms since epoch) or when
   * `stop()` says so.
   */
  async parse(
    spec: LanguageSpec,
    text: string,
    options: { deadline?: number; stop?: () => boolean } = {},
  ): Promise<Tree | undefined> {
    const parser = await this.parser(spec);
    return this.parseWith(parser, text, options);
  }

  /** Synchronous parse with a parser already obtained from {@link parser}. */
  parseWith(parser: Parser, text: string, options: { deadline?: number; stop?: () => boolean } = {}): Tree | undefined {
    const { deadline, stop } = options;
    const progressCallback =
      deadline !== undefined || stop
        ? () => (deadline !== undefined && Date.now() > deadline) || (stop?.() ?? false)
        : undefined;
    const tree = parser.parse(
      (index) => {
        if (index >= text.length) return undefined;
        let end = index + CHUNK;
        // Never end a chunk between the two halves of a surrogate pair.
        const last = text.charCodeAt(end - 1);
        if (last >= 0xd800 && last <= 0xdbff) end++;
        return text.slice(index, end);
      },
      null,
      progressCallback ? { progressCallback } : undefined,
    );
    // A parser that was stopped keeps its partial state; reset it so the next parse starts clean.
    if (!tree) parser.reset();
    return tree ?? undefined;
  }

  /** Frees the parsers (grammars stay loaded for the thread's lifetime; they are small and shared). */
  dispose(): void {
    for (const parser of this.#parsers.values()) parser.delete();
    this.#parsers.clear();
  }
}
