import { afterAll, describe, expect, it } from 'vitest';
import { AstError } from '../src/index.js';
import { findLanguage } from '../src/languages.js';
import { compilePattern } from '../src/pattern/compile.js';
import { metaVarOf, preprocessPattern } from '../src/pattern/metavars.js';
import { inlineLoader } from './helpers.js';

const loader = inlineLoader();
afterAll(() => loader.dispose());

function spec(id: string) {
  const found = findLanguage(id);
  if (!found) throw new Error(`no language ${id}`);
  return found;
}

async function compileError(language: string, pattern: string): Promise<AstError> {
  try {
    await compilePattern(loader.runtime, spec(language), pattern);
  } catch (error) {
    if (error instanceof AstError) return error;
    throw error;
  }
  throw new Error(`"${pattern}" compiled`);
}

describe('metavariable syntax', () => {
  it('rewrites $ into the expando character where the grammar needs it, as ast-grep does', () => {
    expect(preprocessPattern('f($A, $$$B, $$$, $_, $$C) + $x + "$"', spec('python'))).toBe(
      'f(µA, µµµB, µµµ, µ_, µµC) + $x + "$"',
    );
    expect(preprocessPattern('f($A)', spec('typescript'))).toBe('f($A)');
  });

  it('reads every metavariable form', () => {
    const py = spec('python');
    expect(metaVarOf('µNAME', py)).toEqual({ kind: 'single', name: 'NAME', named: true });
    expect(metaVarOf('µµNAME', py)).toEqual({ kind: 'single', name: 'NAME', named: false });
    expect(metaVarOf('µ_', py)).toEqual({ kind: 'single', name: undefined, named: true });
    expect(metaVarOf('µ_X', py)).toEqual({ kind: 'single', name: undefined, named: true });
    expect(metaVarOf('µµµ', py)).toEqual({ kind: 'multi', name: undefined });
    expect(metaVarOf('µµµARGS', py)).toEqual({ kind: 'multi', name: 'ARGS' });
    expect(metaVarOf('µµµ_ARGS', py)).toEqual({ kind: 'multi', name: undefined });
    expect(metaVarOf('µlower', py)).toBeUndefined();
    expect(metaVarOf('µ1', py)).toBeUndefined();
    expect(metaVarOf('plain', py)).toBeUndefined();
  });
});

describe('compilePattern', () => {
  it('picks the first rung that parses and reports it', async () => {
    const go = await compilePattern(loader.runtime, spec('go'), 'errors.New($MSG)');
    expect(go).toMatchObject({ context: 'statement', root: { type: 'inner', kind: 'call_expression' } });
    const goFunc = await compilePattern(loader.runtime, spec('go'), 'func $F($$$) error { $$$ }');
    expect(goFunc).toMatchObject({ root: { kind: 'function_declaration' } });
    const c = await compilePattern(loader.runtime, spec('c'), 'free($P)');
    expect(c).toMatchObject({ context: 'expression', root: { kind: 'call_expression' } });
    const dart = await compilePattern(loader.runtime, spec('dart'), 'dispose(x)');
    expect(dart).toMatchObject({ context: 'expression', root: { kind: 'expression_statement' } });
    const method = await compilePattern(loader.runtime, spec('typescript'), 'dispose() {}');
    expect(method).toMatchObject({ context: 'class member', root: { kind: 'method_definition' } });
  });

  it("collects the pattern's literals for prefiltering and its metavariable names", async () => {
    const compiled = await compilePattern(loader.runtime, spec('typescript'), 'logger.warn($MSG, $$$REST, $_)');
    expect([...compiled.literals].sort()).toEqual(['logger', 'warn']);
    expect(compiled.singles).toEqual(['MSG']);
    expect(compiled.multis).toEqual(['REST']);
    const operator = await compilePattern(loader.runtime, spec('python'), '$A == $A');
    expect(operator.literals).toEqual(['==']);
    const none = await compilePattern(loader.runtime, spec('python'), '$F($$$ARGS)');
    expect(none.literals).toEqual([]);
    // Keywords and one-character tokens are not used: `;` can be automatic (zero-width) in JavaScript.
    const keyword = await compilePattern(loader.runtime, spec('javascript'), 'return $X;');
    expect(keyword.literals).toEqual([]);
  });

  it('reports an unparseable pattern with the language, the contexts tried and where it fails', async () => {
    const error = await compileError('python', 'def foo(:\n    pass');
    expect(error.code).toBe('unparseable_pattern');
    expect(error.message).toContain('unparseable as python');
    expect(error.message).toContain('statement, class member, top level');
    expect(error.message).toContain('line 1, column 9');
    expect(error.message).toMatch(/def foo\(:\n\s+\^/);
  });

  it('says where an incomplete fragment ends', async () => {
    const error = await compileError('typescript', 'foo(a,');
    expect(error.message).toContain('line 1, column 7 (the fragment is incomplete');
  });

  it('points into the right line of a multi-line pattern', async () => {
    const error = await compileError('go', 'if x {\n  return ) \n}');
    expect(error.message).toContain('line 2');
  });

  it('refuses a lone $$$ and an empty pattern', async () => {
    expect((await compileError('typescript', '$$$ARGS')).code).toBe('invalid_pattern');
    expect((await compileError('typescript', '   \n ')).code).toBe('invalid_pattern');
  });

  it('accepts indented multi-line patterns (the common indentation is stripped)', async () => {
    const compiled = await compilePattern(loader.runtime, spec('python'), '\n    if $C:\n        return $V\n');
    expect(compiled.root).toMatchObject({ kind: 'if_statement' });
  });
});
