import type { ToolResult } from '@agent-tools/core';
import { plural } from '@agent-tools/core/internal';
import {
  DefinitionRequest,
  ImplementationRequest,
  type Location,
  type LocationLink,
  type Range,
  ReferencesRequest,
  TypeDefinitionRequest,
} from 'vscode-languageserver-protocol';
import { LineReader } from '../../format/line-reader.js';
import { fileCount, renderLocations, toRawLocations } from '../../format/locations.js';
import { pathLabel } from '../../format/outside-label.js';
import { callWith, cutInHead } from '../../format/paging.js';
import type { LspParams } from '../lsp-parameters.js';
import { pageData } from '../page-data.js';
import { pathFilter } from '../path-filter.js';
import { askWhenComplete, leadOf, ok, openTarget, type Reporter, requireCapability, type ToolEnv } from '../shared.js';

/** The navigation actions and what they ask. */
export type NavigationAction = 'definition' | 'type_definition' | 'implementation' | 'references';

const CAPABILITY = {
  definition: 'definitionProvider',
  type_definition: 'typeDefinitionProvider',
  implementation: 'implementationProvider',
  references: 'referencesProvider',
} as const;
const CAPS: Record<NavigationAction, number> = { definition: 50, type_definition: 50, implementation: 50, references: 50 };
const NOUNS: Record<NavigationAction, [string, string]> = {
  definition: ['definition', 'definitions'],
  type_definition: ['type definition', 'type definitions'],
  implementation: ['implementation', 'implementations'],
  references: ['reference', 'references'],
};
const EMPTY: Record<NavigationAction, string> = {
  definition: 'The server knows no definition for it (a keyword, a literal, or a name it cannot resolve).',
  type_definition: 'The server knows no type definition for it (a primitive type has none).',
  implementation: 'The server found no implementations.',
  references: 'The server found no references.',
};

/** definition, type_definition, implementation, references: locations grouped by file with their lines. */
export async function navigate(env: ToolEnv, action: NavigationAction, params: LspParams, signal: AbortSignal, report?: Reporter): Promise<ToolResult> {
  const target = await openTarget(env, params, action, signal);
  const { server, doc, position, at, symbol } = target;
  requireCapability(server, CAPABILITY[action], action, 'Try definition, references or hover instead.');
  const textDocument = { uri: doc.uri };
  const { answer, completeness } = await askWhenComplete(env, server, signal, (): Promise<Location | Location[] | LocationLink[] | null> => {
    switch (action) {
      case 'definition':
        return server.request(DefinitionRequest.type, { textDocument, position: at }, { signal });
      case 'type_definition':
        return server.request(TypeDefinitionRequest.type, { textDocument, position: at }, { signal });
      case 'implementation':
        return server.request(ImplementationRequest.type, { textDocument, position: at }, { signal });
      case 'references':
        return server.request(ReferencesRequest.type, { textDocument, position: at, context: { includeDeclaration: true } }, { signal });
    }
  }, report);
  const all = toRawLocations(answer).map((l) => ({ path: l.path, range: server.positions.range(l.path, l.range) }));
  const filter = pathFilter(env.cwd, params.path);
  const locations = filter ? all.filter((l) => filter.matches(l.path)) : all;
  const lead = leadOf(target, completeness);
  const flags = completeness.complete ? {} : { incomplete: completeness.reason };
  const asked = `\`${symbol}\` (${target.file}:${position.line + 1})`;
  const [one, many] = NOUNS[action];
  const preposition = action === 'references' ? 'to' : 'of';
  if (locations.length === 0) {
    const none = filter
      ? `None of the ${plural(all.length, one, many)} ${preposition} ${asked} is in ${filter.label}.${all.length ? ' Call again without "path" to see them.' : ''}`
      : `No ${many} ${preposition} ${asked}. ${EMPTY[action]}`;
    return ok(`${lead}${none}`, { action, symbol, total: 0, ...flags, locations: [] });
  }
  const reader = new LineReader(env.cwd, (path) => server.documents.get(path)?.text);
  if (action === 'type_definition' && locations.every((l) => declaresItself(reader.locationLine(l.path, l.range.start.line), l.range.start.character, symbol))) {
    // pyright answers a parameter or variable of unknown type with its own declaration: that is no type.
    const first = locations[0] as (typeof locations)[number];
    return ok(
      `${lead}The server knows no type for ${asked}: it answers with the declaration of \`${symbol}\` itself (${pathLabel(first.path, env.cwd)}:${first.range.start.line + 1}), which is not a type. Use hover to see what it infers there.`,
      { action, symbol, total: 0, ...flags, noType: true, locations: [] },
    );
  }
  // At a keyword (`function`, `class`, `const`), tsserver answers for the name it declares: the answer names that one.
  const answeredFor = action === 'references' ? neighbourName(reader, locations, symbol) : undefined;
  const subject = answeredFor
    ? `\`${answeredFor}\` (\`${symbol}\` on ${target.file}:${position.line + 1} is not a name; the server answered for \`${answeredFor}\` next to it)`
    : asked;
  const rendered = renderLocations(locations, {
    cwd: env.cwd,
    reader,
    max: CAPS[action],
    first: target.path,
    offset: params.offset ?? 0,
    noun: many,
    nextCall: (offset) => callWith(params, offset),
  });
  const files = fileCount(locations);
  const inFiles = files > 1 ? ` in ${plural(files, 'file')}` : '';
  const head = filter
    ? `${locations.length} of the ${plural(all.length, one, many)} ${preposition} ${subject} ${locations.length === 1 ? 'is' : 'are'} in ${filter.label}${inFiles}${cutInHead(rendered)}:`
    : `${plural(locations.length, one, many)} ${preposition} ${subject}${inFiles}${cutInHead(rendered)}:`;
  return ok(`${lead}${head}\n${rendered.text}`, {
    action,
    symbol,
    total: rendered.total,
    ...flags,
    ...pageData(rendered, filter),
    locations: rendered.data,
  });
}

/** Words that begin the declaration of a type: a location after one of them on its line is a type. */
const TYPE_DECLARATION = /\b(class|interface|type|enum|struct|union|typedef|protocol|trait|namespace|module|record)\b/;

/** Whether a type definition is only the symbol's own declaration: its name there, and no type declared on the line. */
function declaresItself(line: string | undefined, character: number, symbol: string): boolean {
  if (line === undefined) return false;
  return line.slice(character, character + symbol.length) === symbol && !TYPE_DECLARATION.test(line.slice(0, character));
}

/**
 * The one name every location covers when none covers the symbol asked for: the server answered for the name next to
 * a keyword. Undefined when any location is the symbol itself (an ordinary answer) or the locations name several.
 */
function neighbourName(reader: LineReader, locations: readonly { path: string; range: Range }[], symbol: string): string | undefined {
  const names = new Set<string>();
  for (const { path, range } of locations) {
    if (range.start.line !== range.end.line) return undefined;
    const name = reader.locationLine(path, range.start.line)?.slice(range.start.character, range.end.character);
    if (name === undefined || name === symbol || !/^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u.test(name)) return undefined;
    names.add(name);
  }
  return names.size === 1 ? [...names][0] : undefined;
}
