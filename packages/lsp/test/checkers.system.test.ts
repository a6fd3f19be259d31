import { join } from 'node:path';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { builtinServers, createLspSupervisor } from '../src/index.js';
import { parseDartMachine } from '../src/project-check/checkers/dart-analyze.js';
import { parseTscOutput } from '../src/project-check/checkers/tsc.js';
import { checkProject } from '../src/project-check/project-check.js';

describe('project checkers', () => {
  it('tsc output: located, continued and global messages; a crash is a failure, not clean', () => {
    const root = '/p';
    const parsed = parseTscOutput(
      {
        stdout: [
          "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
          "src/b.ts(1,1): error TS2345: Argument of type '{ a: string; }' is not assignable to parameter of type 'X'.",
          "  Property 'b' is missing in type '{ a: string; }' but required in type 'X'.",
          "error TS5083: Cannot read file '/p/base.json'.",
        ].join('\n'),
        stderr: '',
        code: 2,
      },
      root,
    );
    expect(parsed).toEqual([
      { file: '/p/src/a.ts', line: 3, column: 7, severity: 'error', code: 'TS2322', message: "Type 'string' is not assignable to type 'number'.", source: 'tsc' },
      {
        file: '/p/src/b.ts',
        line: 1,
        column: 1,
        severity: 'error',
        code: 'TS2345',
        message: "Argument of type '{ a: string; }' is not assignable to parameter of type 'X'.\nProperty 'b' is missing in type '{ a: string; }' but required in type 'X'.",
        source: 'tsc',
      },
      { file: '/p', line: 1, severity: 'error', code: 'TS5083', message: "Cannot read file '/p/base.json'.", source: 'tsc' },
    ]);
    expect(parseTscOutput({ stdout: '', stderr: 'Segmentation fault', code: 139 }, root)).toEqual({ failed: 'tsc exited with code 139: Segmentation fault' });
  });

  it('dart analyze --format=machine (captured output: the Dart SDK cannot be installed here)', () => {
    const parsed = parseDartMachine(
      {
        stdout: '',
        stderr: [
          "ERROR|COMPILE_TIME_ERROR|UNDEFINED_IDENTIFIER|/p/lib/main.dart|3|9|5|Undefined name 'count'.",
          'INFO|LINT|PREFER_CONST|/p/lib/main.dart|1|1|3|Use \\| const.',
        ].join('\n'),
        code: 3,
      },
      '/p',
    );
    expect(parsed).toEqual([
      { file: '/p/lib/main.dart', line: 3, column: 9, severity: 'error', code: 'undefined_identifier', message: "Undefined name 'count'.", source: 'dart' },
      { file: '/p/lib/main.dart', line: 1, column: 1, severity: 'information', code: 'prefer_const', message: 'Use | const.', source: 'dart' },
    ]);
    expect(parseDartMachine({ stdout: '', stderr: 'Could not find package', code: 64 }, '/p')).toMatchObject({ failed: expect.stringContaining('dart analyze exited with code 64') });
  });

  it('cargo check runs on a Rust crate even without rust-analyzer', { timeout: 120_000 }, async () => {
    using dir = tempDir({
      'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/main.rs': 'fn main() {\n    let total: u32 = "text";\n    println!("{}", total);\n}\n',
    });
    await using supervisor = createLspSupervisor({ cwd: dir.path, builtins: ['rust-analyzer'], env: { ...process.env, CARGO_TARGET_DIR: join(dir.path, 'target') } });
    const [part] = await checkProject(supervisor);
    expect(part).toMatchObject({ server: 'rust-analyzer', root: '.', method: 'cargo check in .', verified: true });
    expect(part?.diagnostics).toEqual([
      expect.objectContaining({ file: dir.join('src/main.rs'), line: 2, column: 22, severity: 'error', code: 'E0308', source: 'cargo' }),
    ]);
  });

  it('a checker that is not available falls back to the server, and without a server is NOT verified', async () => {
    using dir = tempDir({ 'package.json': '{}', 'a.js': 'export const a = 1;\n' });
    await using supervisor = createLspSupervisor({ cwd: dir.path, builtins: ['typescript'], env: { ...process.env, PATH: '/nonexistent' } });
    const [part] = await checkProject(supervisor);
    // No tsconfig.json: tsc cannot run; the bundled server is found and opens the file instead.
    expect(part).toMatchObject({ verified: true, method: 'opening 1 file with typescript-language-server', note: 'tsc cannot run: there is no tsconfig.json or jsconfig.json in .' });

    const { bundled: _, ...unbundled } = builtinServers.typescript;
    await using bare = createLspSupervisor({ cwd: dir.path, builtins: false, servers: [{ ...unbundled, binaries: ['agent-tools-no-tsls'] }], env: { ...process.env, PATH: '/nonexistent' } });
    const [unverified] = await checkProject(bare);
    expect(unverified).toMatchObject({ verified: false, method: 'none', diagnostics: [] });
    expect(unverified?.reason).toBe(
      'tsc cannot run: there is no tsconfig.json or jsconfig.json in .; the server binary was not found (looked in node_modules/.bin, .venv/bin, venv/bin (from . up to the working directory), $PATH)',
    );
  });
});
