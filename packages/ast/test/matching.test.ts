import { afterAll, describe, expect, it } from 'vitest';
import { find, inlineLoader, texts } from './helpers.js';

const loader = inlineLoader();
afterAll(() => loader.dispose());

describe('metavariables', () => {
  it('$$$ matches zero arguments, and one, and many (typescript)', async () => {
    const code = 'foo();\nfoo(1);\nfoo(1, 2, 3);\nbar(1);\n';
    expect(await texts(loader, 'a.ts', code, 'foo($$$ARGS)')).toEqual(['foo()', 'foo(1)', 'foo(1, 2, 3)']);
    const found = await find(loader, 'a.ts', code, 'foo($$$ARGS)');
    expect(found.map((f) => f.captures['ARGS'])).toEqual(['', '1', '1, 2, 3']);
  });

  it('$$$ backtracks: $F($$$A, $LAST) matches every call with an argument and binds the last (ast-grep only finds one-argument calls)', async () => {
    const code = 'foo()\nfoo(1)\nfoo(1, 2)\nfoo(1, 2, 3)\n';
    const found = await find(loader, 'a.py', code, '$F($$$A, $LAST)');
    expect(found.map((f) => f.text)).toEqual(['foo(1)', 'foo(1, 2)', 'foo(1, 2, 3)']);
    expect(found.map((f) => f.captures['LAST'])).toEqual(['1', '2', '3']);
    expect(found.map((f) => f.captures['A'])).toEqual(['', '1', '1, 2']);
  });

  it('a repeated metavariable must capture the same code: $A == $A matches x == x, not x == y', async () => {
    const code = 'if (x == x) {}\nif (x == y) {}\nif (a.b(1) == a.b(1)) {}\nif (a.b(1) == a.b(2)) {}\n';
    expect(await texts(loader, 'a.js', code, '$A == $A')).toEqual(['x == x', 'a.b(1) == a.b(1)']);
  });

  it('compares repeated captures as code, so spacing inside them does not matter (as in ast-grep)', async () => {
    expect(await texts(loader, 'a.py', 'assert f(a+b) == f(a + b)\n', '$A == $A')).toEqual(['f(a+b) == f(a + b)']);
  });

  it('$_ is a wildcard that binds nothing: each use is independent', async () => {
    const code = 'x = f(1, 2)\ny = f(3, 3)\n';
    const found = await find(loader, 'a.py', code, 'f($_, $_)');
    expect(found.map((f) => f.text)).toEqual(['f(1, 2)', 'f(3, 3)']);
    expect(found.every((f) => Object.keys(f.captures).length === 0)).toBe(true);
  });

  it('repeated $$$ runs must capture the same list', async () => {
    const code = 'same(f(a, b), f(a, b))\ndiff(f(a, b), f(a, c))\n';
    expect(await texts(loader, 'a.py', code, '$G(f($$$X), f($$$X))')).toEqual(['same(f(a, b), f(a, b))']);
  });

  it('a lone metavariable matches any named node', async () => {
    const found = await find(loader, 'a.json', '{"a": [1, 2]}', '$X');
    expect(found.map((f) => f.text)).toContain('[1, 2]');
    expect(found.map((f) => f.text)).not.toContain(',');
  });
});

describe('candidates turned away by their size (a wasm call instead of their children)', () => {
  it('$F($X, $X) finds calls with two equal arguments among calls of every size, nested and with comments (as the ast-grep CLI does)', async () => {
    const code = ['f(a);', 'f();', 'f(a, a);', 'g(x.y, x.y);', 'h(a, b);', 'k(a, /* c */ a);', 'm(n(a, a));', 'p(a, a, a);', 'q(a.b);'].join('\n');
    expect(await texts(loader, 'a.js', code, '$F($X, $X)')).toEqual(['f(a, a)', 'g(x.y, x.y)', 'k(a, /* c */ a)', 'n(a, a)']);
  });

  it('tokens right after a $$$ run need no node of their own: foo($$$A, $B) and foo($$$) still find the short calls', async () => {
    const code = 'foo();\nfoo(1);\nfoo(1, 2);\n';
    expect(await texts(loader, 'a.js', code, 'foo($$$)')).toEqual(['foo()', 'foo(1)', 'foo(1, 2)']);
    expect(await texts(loader, 'a.js', code, 'foo($$$A, $B)')).toEqual(['foo(1)', 'foo(1, 2)']);
  });

  it('a pattern with a nested call counts the nodes of its whole subtree (python, as the ast-grep CLI finds)', async () => {
    const code = 'a = f(g(1))\nb = f(g())\nc = f(1)\nd = f(g(1), 2)\ne = f(g(h(1)))\n';
    expect(await texts(loader, 'a.py', code, 'f(g($X))')).toEqual(['f(g(1))', 'f(g(h(1)))']);
  });
});

describe('the tree, not the text', () => {
  it('ignores whitespace, line breaks and comments between nodes', async () => {
    const code = 'dispose(\n  x // why\n);\ndispose( /* c */ x );\n';
    expect(await texts(loader, 'a.ts', code, 'dispose(x)')).toHaveLength(2);
  });

  it('never matches inside a string literal or a comment', async () => {
    const code = [
      'const a = "dispose(x)";',
      "const b = 'dispose(x)';",
      'const c = `dispose(x)`;',
      '// dispose(x)',
      '/* dispose(x) */',
      'dispose(x);',
    ].join('\n');
    expect(await find(loader, 'a.ts', code, 'dispose(x)')).toMatchObject([{ line: 6 }]);
    const py = '"""dispose(x)"""\n# dispose(x)\ns = "dispose(x)"\ndispose(x)\n';
    expect(await find(loader, 'a.py', py, 'dispose(x)')).toMatchObject([{ line: 4 }]);
  });

  it('a comment between two statements does not block a match (ast-grep fails there)', async () => {
    const code = 'function f() {\n  foo();\n  // note\n  bar();\n}\n';
    expect(await texts(loader, 'a.js', code, 'function $F() { foo(); bar(); }')).toHaveLength(1);
  });

  it('allows trailing children after the pattern: an if without else also finds one with an else (go)', async () => {
    const code = [
      'package p',
      'func f() error {',
      '\tif err != nil { return err }',
      '\tif err != nil { return err } else { x() }',
      '\treturn nil',
      '}',
    ].join('\n');
    expect(await texts(loader, 'a.go', code, 'if err != nil { return $$$ }')).toHaveLength(2);
  });

  it('unnamed tokens of the pattern must match: a + b is not a - b', async () => {
    expect(await texts(loader, 'a.rs', 'fn f() { let x = a + b; let y = a - b; }', '$X + $Y')).toEqual(['a + b']);
  });

  it('finds a match from a one-character token that touches the one before it (bash $prev, as ast-grep does)', async () => {
    expect(await texts(loader, 'a.sh', 'x=(${a[@]/#/$prev,})\necho $prev,\n', '$_,')).toEqual(['$prev,', '$prev,']);
  });

  it("finds a match from a token whose node holds more than its text (bash's $( inside a string takes the indentation before it)", async () => {
    const code = 'x="a\n  $(complete -p "$cmd" || echo false) b"\n';
    expect(await texts(loader, 'a.sh', code, '$($A)')).toEqual(['  $(complete -p "$cmd" || echo false)']);
  });

  it('never looks for candidates by a token right after $$$, which a match need not hold (as in ast-grep)', async () => {
    // ast-grep does not match a token right after a $$$ on its own: `$$$ || n > $A` finds `n > 0 && m` too.
    const code = 'package p\nfunc f() {\n\tif a || n > 0 {\n\t}\n\tif n > 0 && m {\n\t}\n}\n';
    expect(await texts(loader, 'a.go', code, '$$$ || n > $A')).toEqual(['a || n > 0', 'n > 0 && m']);
  });

  it('reports nested matches, outer first', async () => {
    expect(await texts(loader, 'a.js', 'foo(foo(1));', 'foo($A)')).toEqual(['foo(foo(1))', 'foo(1)']);
  });
});

describe('languages where $ cannot start an identifier', () => {
  const cases: [string, string, string, string[]][] = [
    ['a.py', 'def f(a):\n    return g(a, 1)\n', 'g($X, $Y)', ['g(a, 1)']],
    ['a.rs', 'fn f() { let v = Some(compute(1)); }', 'Some($V)', ['Some(compute(1))']],
    ['a.c', 'int f(void) { return add(1, 2); }', 'add($A, $B)', ['add(1, 2)']],
    ['a.cpp', 'int f() { return ptr->get(); }', '$P->get()', ['ptr->get()']],
    ['a.go', 'package p\nfunc f() { fmt.Println(x) }', 'fmt.Println($$$A)', ['fmt.Println(x)']],
    ['a.rb', 'def f\n  puts(x, y)\nend\n', 'puts($$$A)', ['puts(x, y)']],
    ['a.java', 'class A { void f() { list.add(item); } }', '$L.add($I)', ['list.add(item)']],
    ['a.dart', 'void f() { list.add(item); }', '$L.add($I)', ['list.add(item);']],
    ['a.sh', 'echo hello\nls -la\n', 'echo $A', ['echo hello']],
    ['a.kt', 'fun f() { list.add(item) }', '$L.add($I)', ['list.add(item)']],
    ['a.cs', 'class A { void F() { list.Add(item); } }', '$L.Add($I)', ['list.Add(item)']],
    ['a.lua', 'local function f()\n  table.insert(t, v)\nend\n', 'table.insert($T, $V)', ['table.insert(t, v)']],
    ['a.swift', 'func f() { list.append(item) }', '$L.append($I)', ['list.append(item)']],
  ];
  for (const [file, code, pattern, expected] of cases) {
    it(`${file}: ${pattern}`, async () => {
      expect(await texts(loader, file, code, pattern)).toEqual(expected);
    });
  }

  it('json: metavariables in values and keys, $$$ in arrays', async () => {
    const code = '{"name": "x", "deps": ["a", "b"]}';
    expect(await texts(loader, 'a.json', code, '{"name": $N, $$$REST}')).toEqual([code]);
    expect(await texts(loader, 'a.json', code, '[$$$ITEMS]')).toEqual(['["a", "b"]']);
  });
});

describe('javascript family', () => {
  it('tsx: JSX elements with attribute captures', async () => {
    const code = 'export const A = () => <Button onClick={save} label="Save" />;\nconst b = <Button label="x" />;\n';
    const found = await find(loader, 'a.tsx', code, '<Button onClick={$H} $$$REST />');
    expect(found).toMatchObject([{ text: '<Button onClick={save} label="Save" />', captures: { H: 'save' } }]);
  });

  it('typescript: type annotations are part of the shape', async () => {
    const code = 'let a: string = x;\nlet b: number = y;\nlet c = z;\n';
    expect(await texts(loader, 'a.ts', code, 'let $N: string = $V')).toEqual(['let a: string = x;']);
  });
});

describe('the context ladder', () => {
  it('compiles go errors.New($MSG) as the call it is (ast-grep parses it as a type and finds nothing)', async () => {
    const code = 'package p\nimport "errors"\nfunc f() error { return errors.New("boom") }\n';
    const found = await find(loader, 'a.go', code, 'errors.New($MSG)');
    expect(found).toMatchObject([{ text: 'errors.New("boom")', captures: { MSG: '"boom"' } }]);
  });

  it('compiles c free($P) as a call (ast-grep parses it as a declaration and finds nothing)', async () => {
    const code = '#include <stdlib.h>\nvoid g(char *p) {\n  free(p);\n  if (p) free(p);\n}\n';
    expect(await texts(loader, 'a.c', code, 'free($P)')).toEqual(['free(p)', 'free(p)']);
  });

  it('compiles dart dispose(x) as a call statement, not the top-level function signature it also is', async () => {
    const code = 'void dispose(x) {}\nclass A {\n  void close() {\n    dispose(x);\n  }\n}\n';
    expect(await find(loader, 'a.dart', code, 'dispose(x)')).toMatchObject([{ line: 4 }]);
  });

  it("matches the spec's dart guard: if ($X != null) $X.dispose()", async () => {
    const code = [
      'class A {',
      '  void close() {',
      '    if (controller != null) controller.dispose();',
      '    if (controller != null) other.dispose();',
      '  }',
      '}',
    ].join('\n');
    const found = await find(loader, 'a.dart', code, 'if ($X != null) $X.dispose()');
    expect(found).toMatchObject([{ line: 3, captures: { X: 'controller' } }]);
  });

  it('uses the class-member rung for a method (typescript)', async () => {
    const code = 'class A {\n  dispose() { this.x = null; }\n  run() {}\n}\n';
    expect(await texts(loader, 'a.ts', code, 'dispose() { $$$BODY }')).toEqual(['dispose() { this.x = null; }']);
  });

  it('uses the top-level rung for an import (javascript)', async () => {
    const code = "import fs from 'node:fs';\nimport { x } from './x.js';\n";
    expect(await texts(loader, 'a.js', code, "import $NAME from 'node:fs'")).toEqual(["import fs from 'node:fs';"]);
  });

  it('keeps python block structure: $$$ at the end of a block may match nothing (ast-grep requires one)', async () => {
    const code = 'def f(x):\n    if x:\n        foo()\n    if x:\n        foo()\n        bar()\n';
    const found = await find(loader, 'a.py', code, 'if $C:\n    foo()\n    $$$REST');
    expect(found.map((f) => f.line)).toEqual([2, 4]);
    expect(found.map((f) => f.captures['REST'])).toEqual(['', 'bar()']);
  });
});
