import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarnessProcess, tempDir, waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { databaseFolderName, generatedDatabase } from '../src/config/servers/clangd-database.js';

const harness = new URL('./harness/clangd-harness.mjs', import.meta.url).pathname;
const project = { 'compile_flags.txt': '-std=c11\n', 'math.c': 'int add(int a, int b) { return a + b; }\n', 'main.c': 'int add(int a, int b);\nint main(void) { return add(1, 2); }\n' };

/** The clangd database folders in a temporary directory. */
function databases(base: string): string[] {
  return readdirSync(base).filter((name) => name.startsWith('agent-tools-clangd-'));
}

describe("clangd's generated compilation database", () => {
  it('a harness killed outright, twice, leaves one folder for the root, reused, and nothing else', { timeout: 180_000 }, async () => {
    using base = tempDir({}, 'agent-tools-lsp-tmp-');
    using dir = tempDir(project, 'agent-tools-lsp-clangd-');
    for (let run = 0; run < 2; run++) {
      const child = startHarnessProcess(harness, [dir.path], { ...process.env, TMPDIR: base.path });
      await child.said('ready');
      child.child.kill('SIGKILL');
      await waitUntil(() => child.child.exitCode !== null || child.child.signalCode !== null, 10_000);
      expect(databases(base.path)).toEqual([databaseFolderName(dir.path)]);
    }
    const folder = join(base.path, databaseFolderName(dir.path));
    expect(JSON.parse(readFileSync(join(folder, 'compile_commands.json'), 'utf8'))).toHaveLength(2);
    expect(readFileSync(join(folder, 'agent-tools-root.txt'), 'utf8')).toBe(dir.path);
  });

  it('is the same folder for every run of a root, with the database overwritten, and never in the project', () => {
    using base = tempDir({}, 'agent-tools-lsp-tmp-');
    using dir = tempDir(project, 'agent-tools-lsp-clangd-');
    const first = generatedDatabase(dir.path, base.path);
    dir.write({ 'extra.c': 'int extra;\n' });
    const second = generatedDatabase(dir.path, base.path);
    expect(second?.args).toEqual(first?.args);
    const folder = join(base.path, databaseFolderName(dir.path));
    expect(second?.args).toEqual([`--compile-commands-dir=${folder}`]);
    expect(JSON.parse(readFileSync(join(folder, 'compile_commands.json'), 'utf8'))).toHaveLength(3);
    second?.cleanup();
    expect(existsSync(folder)).toBe(true);
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(dir.path, 'compile_commands.json'))).toBe(false);
  });

  it("the next start removes folders whose root is gone or that were unused for 30 days, and keeps other roots'", () => {
    using base = tempDir({}, 'agent-tools-lsp-tmp-');
    using dir = tempDir(project, 'agent-tools-lsp-clangd-');
    using other = tempDir(project, 'agent-tools-lsp-clangd-');
    generatedDatabase(other.path, base.path);
    const old = (name: string, root: string, days: number) => {
      const folder = join(base.path, `agent-tools-clangd-${process.getuid?.()}-${name}`);
      mkdirSync(join(folder, '.cache', 'clangd', 'index'), { recursive: true });
      writeFileSync(join(folder, 'compile_commands.json'), '[]');
      writeFileSync(join(folder, 'agent-tools-root.txt'), root);
      const when = new Date(Date.now() - days * 24 * 3600_000);
      utimesSync(join(folder, 'compile_commands.json'), when, when);
      return folder;
    };
    const gone = old('0000000000000001', join(dir.path, 'deleted-project'), 1);
    const unused = old('0000000000000002', other.path, 31);
    const recent = old('0000000000000003', other.path, 2);
    const foreign = join(base.path, 'agent-tools-clangd-somebody-else');
    mkdirSync(foreign);
    generatedDatabase(dir.path, base.path);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(unused)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(join(base.path, databaseFolderName(other.path)))).toBe(true);
  });

  it('a per-root path that is a symbolic link (someone else planted it) is not used; a one-off folder is, removed after', () => {
    using base = tempDir({}, 'agent-tools-lsp-tmp-');
    using dir = tempDir(project, 'agent-tools-lsp-clangd-');
    using elsewhere = tempDir({}, 'agent-tools-lsp-elsewhere-');
    symlinkSync(elsewhere.path, join(base.path, databaseFolderName(dir.path)));
    const prepared = generatedDatabase(dir.path, base.path);
    const folder = prepared?.args[0]?.replace('--compile-commands-dir=', '') ?? '';
    expect(folder).not.toBe(join(base.path, databaseFolderName(dir.path)));
    expect(readdirSync(elsewhere.path)).toEqual([]);
    prepared?.cleanup();
    expect(existsSync(folder)).toBe(false);
  });
});
