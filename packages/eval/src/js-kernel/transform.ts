import {
  type ClassDeclaration,
  type FunctionDeclaration,
  type ImportDeclaration,
  type Pattern,
  type Program,
  parse,
  type VariableDeclaration,
} from 'acorn';

/** A cell that does not parse: the message and where. */
export class CellSyntaxError extends Error {
  override readonly name = 'SyntaxError';
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Turns a cell into a script that keeps its bindings and returns its last expression, the way a notebook does:
 *
 * - top-level `const`/`let`/`var`/`class` become assignments to globals declared with `var` outside, so the next
 *   cell sees them (and may redefine them);
 * - top-level functions stay hoisted and are copied to the global when their statement runs;
 * - `import x from "m"` becomes `await import("m")`;
 * - everything runs inside an async arrow, so top-level `await` works, and the last expression is returned.
 *
 * Edits never add or remove newlines, so line numbers in stack traces are the cell's own.
 */
export function transformCell(source: string): string {
  const code = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  const program = parseCell(code);
  const edits: Edit[] = [];
  const globals = new Set<string>();
  const src = (start: number, end: number): string => code.slice(start, end);
  const body = program.body;

  for (const node of body) {
    switch (node.type) {
      case 'VariableDeclaration':
        declarationEdits(node, code, edits, globals);
        break;
      case 'FunctionDeclaration':
        functionEdits(node, edits);
        break;
      case 'ClassDeclaration':
        classEdits(node, edits, globals);
        break;
      case 'ImportDeclaration':
        edits.push(importEdit(node, code, globals));
        break;
      case 'ExportNamedDeclaration':
      case 'ExportDefaultDeclaration':
      case 'ExportAllDeclaration': {
        const { line, column } = position(code, node.start);
        throw new CellSyntaxError('`export` has no meaning in a cell; declare the binding with const, let or function.', line, column);
      }
      default:
        break;
    }
  }

  const last = body[body.length - 1];
  // A cell of string literals only is a directive prologue to the parser; its last one is still the cell's value.
  if (last?.type === 'ExpressionStatement') {
    edits.push({ start: last.start, end: last.end, text: `;return (${src(last.expression.start, last.expression.end)});` });
  }

  let out = code;
  // Later edits first; of two inserts at one offset, the one pushed later is applied first so the earlier one ends
  // up in front of it (a declarator's `)` before the statement's `;`).
  const ordered = edits.map((edit, index) => ({ edit, index })).sort((a, b) => b.edit.start - a.edit.start || b.index - a.index);
  for (const { edit } of ordered) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  const declared = globals.size ? `var ${[...globals].join(', ')}; ` : '';
  return `${declared}(async () => {${out}\n})()`;
}

function parseCell(code: string): Program {
  try {
    return parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, locations: false });
  } catch (scriptError) {
    if (!/^\s*(import|export)\b/m.test(code)) throw syntaxError(scriptError);
    try {
      return parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true });
    } catch (moduleError) {
      throw syntaxError(moduleError);
    }
  }
}

function syntaxError(error: unknown): CellSyntaxError {
  const e = error as { message?: string; loc?: { line: number; column: number } };
  const message = (e.message ?? String(error)).replace(/\s*\(\d+:\d+\)$/, '');
  return new CellSyntaxError(message, e.loc?.line ?? 1, e.loc?.column ?? 0);
}

function declarationEdits(node: VariableDeclaration, code: string, edits: Edit[], globals: Set<string>): void {
  // `;` in place of the keyword: the statement now starts with `(`, which must not continue the previous line.
  const keyword = /^(await\s+using|using|const|let|var)/.exec(code.slice(node.start))?.[0] ?? node.kind;
  edits.push({ start: node.start, end: node.start + keyword.length, text: ';' });
  for (const declarator of node.declarations) {
    for (const name of bindingNames(declarator.id)) globals.add(name);
    if (declarator.init) {
      edits.push({ start: declarator.start, end: declarator.start, text: '(' });
      edits.push({ start: declarator.end, end: declarator.end, text: ')' });
    } else if (node.kind !== 'var') {
      edits.push({ start: declarator.start, end: declarator.start, text: '(' });
      edits.push({ start: declarator.end, end: declarator.end, text: ' = undefined)' });
    } else {
      // `var x;` keeps the value x already has, as it would in one long script.
      edits.push({ start: declarator.start, end: declarator.end, text: `void ${code.slice(declarator.start, declarator.end)}` });
    }
  }
  if (code[node.end - 1] !== ';') edits.push({ start: node.end, end: node.end, text: ';' });
}

function functionEdits(node: FunctionDeclaration, edits: Edit[]): void {
  const name = node.id?.name;
  if (!name) return;
  // The declaration stays where it is (hoisted within the cell); the global gets it when its statement runs.
  edits.push({ start: node.start, end: node.start, text: `;globalThis[${JSON.stringify(name)}] = ${name}; ` });
}

function classEdits(node: ClassDeclaration, edits: Edit[], globals: Set<string>): void {
  const name = node.id?.name;
  if (!name) return;
  globals.add(name);
  edits.push({ start: node.start, end: node.start, text: `;${name} = ` });
  edits.push({ start: node.end, end: node.end, text: ';' });
}

function importEdit(node: ImportDeclaration, code: string, globals: Set<string>): Edit {
  const source = code.slice(node.source.start, node.source.end);
  const newlines = '\n'.repeat((code.slice(node.start, node.end).match(/\n/g) ?? []).length);
  const load = `await import(${source})`;
  const namespace = node.specifiers.find((s) => s.type === 'ImportNamespaceSpecifier');
  const defaults = node.specifiers.find((s) => s.type === 'ImportDefaultSpecifier');
  const named = node.specifiers.filter((s) => s.type === 'ImportSpecifier');
  for (const s of node.specifiers) globals.add(s.local.name);
  if (namespace) {
    const ns = namespace.local.name;
    const extra = defaults ? ` ${defaults.local.name} = ${ns}.default;` : '';
    return { start: node.start, end: node.end, text: `;${ns} = ${load};${extra}${newlines}` };
  }
  if (!defaults && named.length === 0) return { start: node.start, end: node.end, text: `;${load};${newlines}` };
  const keys = [
    ...(defaults ? [`default: ${defaults.local.name}`] : []),
    ...named.map((s) => {
      const imported = s.imported.type === 'Identifier' ? s.imported.name : JSON.stringify(s.imported.value);
      return `${imported}: ${s.local.name}`;
    }),
  ];
  return { start: node.start, end: node.end, text: `;({ ${keys.join(', ')} } = ${load});${newlines}` };
}

/** Every name a binding pattern declares. */
export function bindingNames(pattern: Pattern): string[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((p) => (p.type === 'RestElement' ? bindingNames(p.argument) : bindingNames(p.value)));
    case 'ArrayPattern':
      return pattern.elements.flatMap((e) => (e ? bindingNames(e) : []));
    case 'RestElement':
      return bindingNames(pattern.argument);
    case 'AssignmentPattern':
      return bindingNames(pattern.left);
    default:
      return [];
  }
}

function position(code: string, offset: number): { line: number; column: number } {
  const before = code.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1] ?? '').length };
}
