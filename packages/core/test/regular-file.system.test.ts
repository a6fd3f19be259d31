import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFileSync, resolveInside } from '../src/index.js';
import { readRegularFile, readRegularFileIntoSync } from '../src/regular-file.js';
import { scratch } from './helpers.js';

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}

describe('special files are refused by name, never opened in a way that blocks', () => {
  it('resolveInside with kind "file" refuses a FIFO and a socket, naming the type', async () => {
    using dir = scratch();
    mkdirSync(join(dir.path, 'src'));
    execFileSync('mkfifo', [join(dir.path, 'src/x.py')]);
    const fifo = thrown(() => resolveInside(dir.path, 'src/x.py', { mustExist: true, kind: 'file' }));
    expect(fifo.message).toBe(
      '[agent-tools/core] "src/x.py" is a FIFO (named pipe), not a regular file; tools read and write regular files only, so it was not opened. Pass a regular file.',
    );
    expect((fifo as { code?: string }).code).toBe('not_regular_file');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir.path, 'sock.ts'), resolve));
    try {
      expect(thrown(() => resolveInside(dir.path, 'sock.ts', { kind: 'file' })).message).toContain('"sock.ts" is a socket');
    } finally {
      server.close();
    }
  });

  it('readRegularFileSync and readRegularFile return at once for a FIFO with no writer, and read a regular file', async () => {
    using dir = scratch();
    execFileSync('mkfifo', [join(dir.path, 'x.py')]);
    writeFileSync(join(dir.path, 'ok.py'), 'print(1)\n');
    expect(thrown(() => readRegularFileSync(join(dir.path, 'x.py'), 'x.py')).message).toContain('"x.py" is a FIFO (named pipe)');
    await expect(readRegularFile(join(dir.path, 'x.py'), 'x.py')).rejects.toThrow('"x.py" is a FIFO (named pipe)');
    expect(readRegularFileSync(join(dir.path, 'ok.py')).toString()).toBe('print(1)\n');
    expect((await readRegularFile(join(dir.path, 'ok.py'))).bytes.toString()).toBe('print(1)\n');
    expect(thrown(() => readRegularFileSync('/dev/null', 'null.py')).message).toContain('"null.py" is a character device');
  });

  it('readRegularFileIntoSync reads into one growing buffer, each read whole, and refuses what readRegularFileSync refuses', () => {
    using dir = scratch();
    execFileSync('mkfifo', [join(dir.path, 'x.py')]);
    const big = 'x = 1\n'.repeat(5000);
    writeFileSync(join(dir.path, 'big.py'), big);
    writeFileSync(join(dir.path, 'small.py'), 'print(2)\n');
    writeFileSync(join(dir.path, 'empty.py'), '');
    const buffer = { buffer: Buffer.alloc(4) };
    expect(readRegularFileIntoSync(join(dir.path, 'small.py'), buffer).toString()).toBe('print(2)\n');
    expect(readRegularFileIntoSync(join(dir.path, 'big.py'), buffer).toString()).toBe(big);
    const grown = buffer.buffer;
    expect(grown.length).toBeGreaterThan(big.length);
    expect(readRegularFileIntoSync(join(dir.path, 'small.py'), buffer).toString()).toBe('print(2)\n');
    expect(readRegularFileIntoSync(join(dir.path, 'empty.py'), buffer).length).toBe(0);
    expect(buffer.buffer).toBe(grown);
    expect(thrown(() => readRegularFileIntoSync(join(dir.path, 'x.py'), buffer, 'x.py')).message).toContain('"x.py" is a FIFO (named pipe)');
    expect(thrown(() => readRegularFileIntoSync(dir.path, buffer, 'dir')).message).toContain('"dir" is a directory');
  });
});
