import { describe, expect, it } from 'vitest';
import { scanLines } from '../src/python/lexer.js';
import { rewritePython } from '../src/python/magics.js';

function code(source: string): string {
  const result = rewritePython(source);
  if ('error' in result) throw new Error(`unexpected error: ${result.error}`);
  return result.code;
}

function error(source: string): string {
  const result = rewritePython(source);
  if (!('error' in result)) throw new Error(`expected an error, got ${result.code}`);
  return result.error;
}

describe('scanLines', () => {
  it('marks lines inside brackets, triple-quoted strings and continuations as not starting a statement', () => {
    const lines = scanLines(['x = (1', '% 2)', 's = """', '!not a command', '"""', 'y = 1 + \\', '  2', '!ls'].join('\n'));
    expect(lines.map((l) => l.statementStart)).toEqual([true, false, true, false, false, true, false, true]);
  });

  it('is not fooled by quotes, brackets and hashes inside strings or comments', () => {
    const lines = scanLines(['a = "(" # )', "b = '''x'''  # (", 'c = "\\"("', '!echo ok'].join('\n'));
    expect(lines.map((l) => l.statementStart)).toEqual([true, true, true, true]);
  });
});

describe('rewritePython', () => {
  it('leaves plain Python untouched', () => {
    const source = 'import os\nx = 10 % 3\nif x:\n    print(not x)\n';
    expect(rewritePython(source)).toEqual({ code: source, rewritten: [] });
  });

  it('rewrites !cmd and x = !cmd, keeping indentation and line count', () => {
    const source = 'for d in ["a"]:\n    !echo {d}\nfiles = !ls -1\nprint(files)';
    const out = code(source);
    expect(out).toBe(
      'for d in ["a"]:\n    _agent_tools.shell("echo {d}")\nfiles = _agent_tools.shell_lines("ls -1")\nprint(files)',
    );
    expect(out.split('\n')).toHaveLength(source.split('\n').length);
  });

  it('rewrites %pip, %cd, %env, %matplotlib and %timeit line magics', () => {
    expect(code('%pip install ./pkg --no-deps')).toBe('_agent_tools.pip("install ./pkg --no-deps")');
    expect(code('%cd "my dir"')).toBe('_agent_tools.cd("\\"my dir\\"")');
    expect(code('%env DEBUG=1')).toBe('_agent_tools.env("DEBUG=1")');
    expect(code('%matplotlib inline')).toMatch(/^pass\b/);
    expect(code('%timeit -n 10 -r 3 sorted(xs)')).toBe('_agent_tools.timeit("sorted(xs)", "pass", globals(), number=10, repeat=3)');
  });

  it('rewrites %%bash, %%sh and %%timeit cell magics', () => {
    expect(code('%%bash\necho "hi"\nexit 2')).toBe('_agent_tools.cell_shell("echo \\"hi\\"\\nexit 2", "bash")');
    expect(code('\n%%sh\nls')).toBe('_agent_tools.cell_shell("ls", "sh")');
    expect(code('%%timeit -n 5 data = list(range(9))\nsorted(data)')).toBe(
      '_agent_tools.timeit("sorted(data)", "data = list(range(9))", globals(), number=5)',
    );
  });

  it('reports which idioms it rewrote', () => {
    const result = rewritePython('%cd /tmp\n!ls\nx = 1');
    expect(result).toMatchObject({ rewritten: ['%cd', '!cmd'] });
  });

  it('turns obj? into help(obj)', () => {
    expect(code('len?')).toBe('help(len)');
    expect(code('os.path.join??')).toBe('help(os.path.join)');
  });

  it('does not touch % or ! inside strings and expressions', () => {
    const source = 'msg = """\n%pip install nothing\n!rm -rf /\n"""\nv = (10\n % 3)';
    expect(code(source)).toBe(source);
  });

  it('refuses magics it does not support, with advice and the supported list', () => {
    const text = error('%load_ext autoreload');
    expect(text).toContain('`%load_ext` is not supported');
    expect(text).toContain('importlib.reload');
    expect(text).toContain('%pip, %cd, !cmd');
    expect(error('%%writefile out.txt\nhello')).toContain('tool("write"');
    expect(error('%%capture\nprint(1)')).toContain('redirect_stdout');
  });

  it('refuses a cell magic that is not on the first line', () => {
    expect(error('x = 1\n%%bash\nls')).toContain('must be the first line');
  });

  it('refuses %timeit options it cannot honour', () => {
    expect(error('%timeit -o f()')).toContain('-o');
    expect(error('%timeit')).toContain('needs a statement');
  });
});
