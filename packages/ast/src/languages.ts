import { AstError } from './errors.js';

/** The grammar ids `ast_grep` accepts (aliases such as `ts`, `py`, `rs` resolve to these). */
export type LanguageId =
  | 'bash'
  | 'c'
  | 'cpp'
  | 'csharp'
  | 'css'
  | 'dart'
  | 'elixir'
  | 'go'
  | 'haskell'
  | 'hcl'
  | 'html'
  | 'java'
  | 'javascript'
  | 'json'
  | 'kotlin'
  | 'lua'
  | 'markdown'
  | 'nix'
  | 'php'
  | 'python'
  | 'ruby'
  | 'rust'
  | 'scala'
  | 'solidity'
  | 'swift'
  | 'tsx'
  | 'typescript'
  | 'yaml';

/** Where a pattern fragment can sit: one rung of the compiler's context ladder. */
export interface PatternContext {
  /** statement, expression, class member, declaration or top level: named in error messages. */
  readonly name: string;
  readonly before: string;
  readonly after: string;
  /**
   * Text appended right after the fragment but outside its range (a `;` that turns a call into a statement
   * in languages that require one). The node is preferably the one spanning the fragment alone.
   */
  readonly tail?: string;
  /** Indentation put before every line of the fragment (Python's blocks). */
  readonly indent?: string;
}

/** What the package knows about one language. */
export interface LanguageSpec {
  readonly id: LanguageId;
  readonly aliases: readonly string[];
  /** File extensions searched for this language, without the dot. */
  readonly extensions: readonly string[];
  /** The grammar's wasm name: the file is `tree-sitter-<grammar>.wasm`. */
  readonly grammar: string;
  /**
   * The npm package that ships the wasm file (see the README for why each language uses its package): a
   * per-language `tree-sitter-*` package of the version ast-grep compiles in, or a package of prebuilt wasm files
   * (`@cursorless/tree-sitter-wasms`, `@repomix/tree-sitter-wasms`) where no such package ships one
   * web-tree-sitter loads.
   */
  readonly grammarPackage: string;
  /** Where in that package the wasm file sits ('' for its root). */
  readonly grammarPath: string;
  /**
   * The character that stands for `$` while the pattern is parsed, for grammars in which `$` cannot start an
   * identifier (ast-grep calls it the expando character). `µ` is a letter to every grammar here.
   */
  readonly expando: string;
  /** The context ladder, tried in order; the first rung that parses without errors is used. */
  readonly contexts: readonly PatternContext[];
  /**
   * Statements end with `;`: a metavariable standing alone as a statement is tried with this text after it,
   * marked virtual (see `withStatementSemicolons`).
   */
  readonly statementSemicolons?: string;
  /**
   * A second expando tried when no context accepts the pattern with the first (bash: `$$$` next to `;` reads as
   * the shell's own `$$`, so `if $C; then $$$; fi` parses only with metavariables written as words).
   */
  readonly fallbackExpando?: string;
  /** ast-grep's expando character where it differs from ours (C and C++: U+10000). */
  readonly astGrepExpando?: string;
  /** Metavariables are written as string literals while parsing (JSON has no identifiers). */
  readonly quoteMetavariables?: boolean;
  /**
   * Tokens that make the grammar read a metavariable's place another way (`int`: C reads `sizeof($T)` as the size
   * of an expression, `sizeof(int)` as the size of a type): each is tried in place of each metavariable, and a
   * reading of another shape is matched too (see `src/pattern/readings.ts`).
   */
  readonly readingProbes?: readonly { readonly text: string; readonly what: string }[];
  /** Set by the compiler while it reads a pattern with a metavariable replaced by a probe: nodes spelling `text` are `$name`. */
  readonly probing?: readonly Probing[];
  /** Set by the compiler: with `_` as the expando, `__` is the wildcard `$_` (ast-grep reads it as a name). */
  readonly wildcardUnderscore?: boolean;
}

/** A metavariable replaced by a probe token while a pattern's other readings are compiled: nodes spelling `text` are it. */
export interface Probing {
  readonly text: string;
  /** The metavariable (the shape of `MetaVar` in pattern/metavars.ts, which imports this module). */
  readonly meta:
    | { readonly kind: 'single'; readonly name: string | undefined; readonly named: boolean }
    | { readonly kind: 'multi'; readonly name: string | undefined };
}

const TOP: PatternContext = { name: 'top level', before: '', after: '' };

/**
 * Probes for `readingProbes`, chosen from the generated check in test/readings-generated.system.test.ts (a pattern made
 * from real code must match the code it was made from): a type keyword (C's `sizeof($T)`), an expression that is
 * no type (C++'s `$A&& $B`: an rvalue-reference declaration, or a logical and), a call where a statement must be
 * an expression statement (C#'s `$A;`), a block where a body may stand (JavaScript's `name(params) $BODY`: a
 * method), a receiver (Go's `func $R Name()`), a declaration after `export`.
 */
const TYPE_INT = { text: 'int', what: 'a type' } as const;
const EXPRESSION_0 = { text: '0', what: 'an expression' } as const;
const CALL = { text: '__ag()', what: 'an expression statement' } as const;
const BLOCK = { text: '{}', what: 'a block' } as const;
const DECLARATION = { text: 'const __ag = 0', what: 'a declaration' } as const;

function cLike(fn: string, member: string): PatternContext[] {
  return [
    { name: 'statement', before: `${fn} {\n`, after: '\n}' },
    { name: 'expression', before: `${fn} {\n`, after: '\n}', tail: ';' },
    { name: 'class member', before: `${member} {\n`, after: '\n};' },
    { name: 'declaration', before: '', after: '', tail: ';' },
    TOP,
  ];
}

function braces(fn: string, member: string, withTail: boolean): PatternContext[] {
  return [
    { name: 'statement', before: `${fn} {\n`, after: '\n}' },
    ...(withTail ? [{ name: 'expression', before: `${fn} {\n`, after: '\n}', tail: ';' }] : []),
    { name: 'class member', before: `${member} {\n`, after: '\n}' },
    TOP,
  ];
}

const JS_CONTEXTS = braces('function __ag()', 'class __AG', false);

const SPECS: readonly LanguageSpec[] = [
  {
    id: 'bash',
    aliases: ['sh', 'shell', 'zsh'],
    extensions: ['sh', 'bash', 'zsh', 'ksh', 'bats'],
    grammar: 'bash',
    grammarPackage: 'tree-sitter-bash',
    grammarPath: '',
    expando: '$',
    fallbackExpando: 'µ',
    contexts: [TOP, { name: 'statement', before: '__ag() {\n', after: '\n}' }],
  },
  {
    id: 'c',
    aliases: [],
    extensions: ['c', 'h'],
    grammar: 'c',
    grammarPackage: 'tree-sitter-c',
    grammarPath: '',
    expando: 'µ',
    statementSemicolons: ';',
    astGrepExpando: '\u{10000}',
    readingProbes: [TYPE_INT, EXPRESSION_0],
    contexts: cLike('void __ag(void)', 'struct __AG'),
  },
  {
    id: 'cpp',
    aliases: ['c++', 'cc', 'cxx'],
    extensions: ['cc', 'cpp', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'h++', 'ino', 'cu'],
    grammar: 'cpp',
    grammarPackage: 'tree-sitter-cpp',
    grammarPath: '',
    expando: 'µ',
    statementSemicolons: ';',
    astGrepExpando: '\u{10000}',
    readingProbes: [TYPE_INT, EXPRESSION_0],
    contexts: cLike('void __ag()', 'class __AG'),
  },
  {
    id: 'csharp',
    aliases: ['cs', 'c#'],
    extensions: ['cs'],
    grammar: 'c_sharp',
    grammarPackage: 'tree-sitter-c-sharp',
    grammarPath: '',
    expando: 'µ',
    statementSemicolons: '();',
    readingProbes: [TYPE_INT, CALL, BLOCK, { text: 'int __ag = 0', what: 'a declaration' }],
    contexts: [
      { name: 'statement', before: 'class __AG { void __ag() {\n', after: '\n} }' },
      { name: 'expression', before: 'class __AG { void __ag() {\n', after: '\n} }', tail: ';' },
      { name: 'class member', before: 'class __AG {\n', after: '\n}' },
      TOP,
    ],
  },
  {
    id: 'css',
    aliases: ['scss'],
    // ast-grep reads .scss files with its CSS grammar too.
    extensions: ['css', 'scss'],
    grammar: 'css',
    grammarPackage: 'tree-sitter-css',
    grammarPath: '',
    expando: '_',
    contexts: [TOP, { name: 'declaration', before: '__ag {\n', after: '\n}' }],
    readingProbes: [{ text: 'ag', what: 'a selector' }, BLOCK],
  },
  {
    id: 'elixir',
    aliases: ['ex'],
    extensions: ['ex', 'exs'],
    grammar: 'elixir',
    grammarPackage: 'tree-sitter-elixir',
    grammarPath: '',
    expando: 'µ',
    contexts: [TOP, { name: 'statement', before: 'def __ag do\n', after: '\nend' }],
  },
  {
    id: 'haskell',
    aliases: ['hs'],
    extensions: ['hs'],
    grammar: 'haskell',
    grammarPackage: 'tree-sitter-haskell',
    grammarPath: '',
    expando: 'µ',
    contexts: [TOP, { name: 'expression', before: '__ag = ', after: '' }],
    readingProbes: [{ text: 'AG', what: 'a module or constructor name' }],
  },
  {
    id: 'hcl',
    aliases: ['terraform', 'tf'],
    extensions: ['hcl', 'nomad', 'tf', 'tfvars', 'workflow'],
    grammar: 'hcl',
    grammarPackage: '@tree-sitter-grammars/tree-sitter-hcl',
    grammarPath: '',
    expando: 'µ',
    contexts: [TOP, { name: 'expression', before: '__ag = ', after: '' }],
    readingProbes: [{ text: '__ag = 0', what: 'an attribute' }],
  },
  {
    id: 'html',
    aliases: ['htm', 'xhtml'],
    extensions: ['html', 'htm', 'xhtml'],
    grammar: 'html',
    grammarPackage: 'tree-sitter-html',
    grammarPath: '',
    expando: 'z',
    contexts: [TOP],
  },
  {
    id: 'dart',
    aliases: [],
    extensions: ['dart'],
    grammar: 'dart',
    grammarPackage: '@cursorless/tree-sitter-wasms',
    grammarPath: 'out',
    expando: '$',
    statementSemicolons: ';',
    readingProbes: [{ text: 'var __ag = 0', what: 'a declaration' }, { text: "'__ag'", what: 'a URI' }],
    contexts: braces('void __ag()', 'class __AG', true),
  },
  {
    id: 'go',
    aliases: ['golang'],
    extensions: ['go'],
    grammar: 'go',
    grammarPackage: 'tree-sitter-go',
    grammarPath: '',
    expando: 'µ',
    readingProbes: [{ text: '(__ag T)', what: 'a receiver' }, BLOCK],
    contexts: [
      { name: 'statement', before: 'package __ag\nfunc __ag() {\n', after: '\n}' },
      { name: 'expression', before: 'package __ag\nvar _ = ', after: '\n' },
      { name: 'declaration', before: 'package __ag\n', after: '\n' },
      { name: 'type', before: 'package __ag\nvar _ ', after: '\n' },
      TOP,
    ],
  },
  {
    id: 'java',
    aliases: [],
    extensions: ['java'],
    grammar: 'java',
    grammarPackage: 'tree-sitter-java',
    grammarPath: '',
    expando: '$',
    statementSemicolons: ';',
    readingProbes: [TYPE_INT, CALL],
    contexts: [
      { name: 'statement', before: 'class __AG { void __ag() {\n', after: '\n} }' },
      { name: 'expression', before: 'class __AG { void __ag() {\n', after: '\n} }', tail: ';' },
      { name: 'class member', before: 'class __AG {\n', after: '\n}' },
      TOP,
    ],
  },
  {
    id: 'javascript',
    aliases: ['js', 'jsx', 'node'],
    extensions: ['js', 'mjs', 'cjs', 'jsx'],
    grammar: 'javascript',
    grammarPackage: 'tree-sitter-javascript',
    grammarPath: '',
    expando: '$',
    statementSemicolons: ';',
    readingProbes: [BLOCK, DECLARATION],
    contexts: JS_CONTEXTS,
  },
  {
    id: 'json',
    aliases: [],
    extensions: ['json'],
    grammar: 'json',
    grammarPackage: 'tree-sitter-json',
    grammarPath: '',
    expando: '$',
    contexts: [TOP],
    quoteMetavariables: true,
  },
  {
    id: 'kotlin',
    aliases: ['kt'],
    extensions: ['kt', 'kts'],
    grammar: 'kotlin',
    grammarPackage: '@cursorless/tree-sitter-wasms',
    grammarPath: 'out',
    expando: 'µ',
    contexts: braces('fun __ag()', 'class __AG', false),
  },
  {
    id: 'lua',
    aliases: [],
    extensions: ['lua'],
    grammar: 'lua',
    grammarPackage: '@tree-sitter-grammars/tree-sitter-lua',
    grammarPath: '',
    expando: 'µ',
    contexts: [
      { name: 'statement', before: 'function __ag()\n', after: '\nend' },
      // Lua has no expression statements: a literal or an operation alone only parses as a value.
      { name: 'expression', before: 'local __ag = ', after: '' },
      TOP,
    ],
  },
  {
    id: 'markdown',
    aliases: ['md'],
    extensions: ['md', 'markdown'],
    grammar: 'markdown',
    grammarPackage: '@cursorless/tree-sitter-wasms',
    grammarPath: 'out',
    expando: '$',
    contexts: [TOP],
  },
  {
    id: 'nix',
    aliases: [],
    extensions: ['nix'],
    grammar: 'nix',
    grammarPackage: '@cursorless/tree-sitter-wasms',
    grammarPath: 'out',
    expando: '_',
    contexts: [TOP],
    readingProbes: [{ text: '__ag = 0;', what: 'bindings' }],
  },
  {
    id: 'php',
    aliases: [],
    extensions: ['php'],
    // ast-grep compiles the grammar's PHP-only variant (no HTML around `<?php`).
    grammar: 'php_only',
    grammarPackage: 'tree-sitter-php',
    grammarPath: '',
    expando: 'µ',
    contexts: [
      TOP,
      { name: 'statement', before: 'function __ag() {\n', after: '\n}' },
      { name: 'expression', before: 'function __ag() {\n', after: '\n}', tail: ';' },
      { name: 'class member', before: 'class __AG {\n', after: '\n}' },
    ],
  },
  {
    id: 'python',
    aliases: ['py', 'python3'],
    extensions: ['py', 'pyi', 'pyw'],
    grammar: 'python',
    grammarPackage: 'tree-sitter-python',
    grammarPath: '',
    expando: 'µ',
    contexts: [
      { name: 'statement', before: 'def __ag():\n', after: '\n', indent: '    ' },
      { name: 'class member', before: 'class __AG:\n', after: '\n', indent: '    ' },
      TOP,
    ],
  },
  {
    id: 'ruby',
    aliases: ['rb'],
    extensions: ['rb', 'rake', 'gemspec', 'ru'],
    grammar: 'ruby',
    grammarPackage: 'tree-sitter-ruby',
    grammarPath: '',
    expando: 'µ',
    contexts: [
      { name: 'statement', before: 'def __ag\n', after: '\nend' },
      { name: 'class member', before: 'class AG__\n', after: '\nend' },
      TOP,
    ],
  },
  {
    id: 'rust',
    aliases: ['rs'],
    extensions: ['rs'],
    grammar: 'rust',
    grammarPackage: 'tree-sitter-rust',
    grammarPath: '',
    expando: 'µ',
    contexts: [
      { name: 'statement', before: 'fn __ag() {\n', after: '\n}' },
      { name: 'expression', before: 'fn __ag() {\n', after: '\n}', tail: ';' },
      { name: 'class member', before: 'impl AG__ {\n', after: '\n}' },
      TOP,
    ],
  },
  {
    id: 'scala',
    aliases: ['sc'],
    extensions: ['scala', 'sc', 'sbt'],
    grammar: 'scala',
    grammarPackage: 'tree-sitter-scala',
    grammarPath: '',
    expando: '$',
    contexts: [
      TOP,
      { name: 'statement', before: 'def __ag() = {\n', after: '\n}' },
      { name: 'class member', before: 'class __AG {\n', after: '\n}' },
    ],
  },
  {
    id: 'solidity',
    aliases: ['sol'],
    extensions: ['sol'],
    grammar: 'solidity',
    grammarPackage: 'tree-sitter-solidity',
    grammarPath: '',
    expando: '$',
    contexts: [
      TOP,
      { name: 'statement', before: 'contract __AG { function __ag() public {\n', after: '\n} }' },
      { name: 'expression', before: 'contract __AG { function __ag() public {\n', after: '\n} }', tail: ';' },
      { name: 'class member', before: 'contract __AG {\n', after: '\n}' },
    ],
  },
  {
    id: 'swift',
    aliases: [],
    extensions: ['swift'],
    grammar: 'swift',
    grammarPackage: '@repomix/tree-sitter-wasms',
    grammarPath: 'out',
    expando: 'µ',
    contexts: braces('func __ag()', 'class __AG', false),
  },
  {
    id: 'tsx',
    aliases: [],
    extensions: ['tsx'],
    grammar: 'tsx',
    grammarPackage: 'tree-sitter-typescript',
    grammarPath: '',
    expando: '$',
    statementSemicolons: ';',
    readingProbes: [BLOCK, DECLARATION],
    contexts: JS_CONTEXTS,
  },
  {
    id: 'typescript',
    aliases: ['ts'],
    extensions: ['ts', 'mts', 'cts'],
    grammar: 'typescript',
    grammarPackage: 'tree-sitter-typescript',
    grammarPath: '',
    expando: '$',
    statementSemicolons: ';',
    readingProbes: [BLOCK, DECLARATION],
    contexts: JS_CONTEXTS,
  },
  {
    id: 'yaml',
    aliases: ['yml'],
    extensions: ['yaml', 'yml'],
    grammar: 'yaml',
    grammarPackage: '@tree-sitter-grammars/tree-sitter-yaml',
    grammarPath: '',
    expando: '$',
    contexts: [TOP],
  },
];

const BY_NAME = new Map<string, LanguageSpec>();
for (const spec of SPECS) {
  BY_NAME.set(spec.id, spec);
  for (const alias of spec.aliases) BY_NAME.set(alias, spec);
}
const BY_EXTENSION = new Map<string, LanguageSpec>();
for (const spec of SPECS) for (const ext of spec.extensions) BY_EXTENSION.set(ext, spec);

/** Every supported language id, sorted. */
export const LANGUAGE_IDS: readonly LanguageId[] = SPECS.map((s) => s.id).sort();

/** The spec of a language id or alias (case-insensitive), or `undefined`. */
export function findLanguage(name: string): LanguageSpec | undefined {
  return BY_NAME.get(name.trim().toLowerCase());
}

/** The spec of a language id, throwing the model-readable error that lists the supported ids. */
export function languageSpec(name: string): LanguageSpec {
  const spec = findLanguage(name);
  if (!spec) {
    throw new AstError(
      'unknown_language',
      `Unknown language "${name}". Supported languages: ${LANGUAGE_IDS.join(', ')}. Pass one of them as \`language\`.`,
    );
  }
  return spec;
}

/** The language of a file by its extension, or `undefined` when no grammar here handles it. */
export function languageOfFile(path: string): LanguageSpec | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION.get(base.slice(dot + 1).toLowerCase());
}

/** Whether a file name has one of the language's extensions. */
export function hasExtensionOf(spec: LanguageSpec, name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return false;
  return spec.extensions.includes(name.slice(dot + 1).toLowerCase());
}
