import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ancestorsUpTo, findBinary, findExecutable, findRoot, projectBinDirs, searchPath } from '../src/discovery.js';
import { displayPath } from '../src/index.js';
import { scratch } from './helpers.js';

/** Writes files (an executable when the content starts with #!) below `root`. */
function layout(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const path = join(root, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
    if (content.startsWith('#!')) chmodSync(path, 0o755);
  }
}

describe('project roots', () => {
  it('finds the nearest marker from a folder up to the working directory, never above it', () => {
    using dir = scratch();
    layout(dir.path, { 'ws/package.json': '{}', 'ws/pkg/tsconfig.json': '{}', 'ws/pkg/src/deep/a.ts': '', 'above.json': '{}' });
    const cwd = join(dir.path, 'ws');
    expect(findRoot(['tsconfig.json', 'package.json'], join(cwd, 'pkg/src/deep'), cwd)).toEqual({ dir: join(cwd, 'pkg'), marker: 'tsconfig.json' });
    expect(findRoot(['package.json'], join(cwd, 'pkg/src'), cwd)).toEqual({ dir: cwd, marker: 'package.json' });
    expect(findRoot(['above.json'], join(cwd, 'pkg'), cwd)).toBeUndefined();
    // The first marker listed wins within one folder.
    layout(dir.path, { 'ws/pkg/package.json': '{}' });
    expect(findRoot(['package.json', 'tsconfig.json'], join(cwd, 'pkg'), cwd)?.marker).toBe('package.json');
  });

  it('walks from a folder up to the top; a folder outside the top is the only one', () => {
    expect(ancestorsUpTo('/w/a/b', '/w')).toEqual(['/w/a/b', '/w/a', '/w']);
    expect(ancestorsUpTo('/w', '/w')).toEqual(['/w']);
    expect(ancestorsUpTo('/elsewhere/x', '/w')).toEqual(['/elsewhere/x']);
    expect(ancestorsUpTo('/w/..x/y', '/w')).toEqual(['/w/..x/y', '/w/..x', '/w']);
  });
});

describe('binaries', () => {
  it("prefers the project's own copy (root up to the working directory) over the search path", () => {
    using dir = scratch();
    const exe = '#!/bin/sh\n';
    layout(dir.path, {
      'ws/node_modules/.bin/tool': exe,
      'ws/pkg/.venv/bin/tool': exe,
      'ws/pkg/.venv/bin/other': 'not executable',
      'bin/tool': exe,
      'bin/other': exe,
    });
    const cwd = join(dir.path, 'ws');
    const path = join(dir.path, 'bin');
    const project = findBinary({ names: ['tool'], root: join(cwd, 'pkg'), cwd, path });
    expect(project.found).toMatchObject({ command: join(cwd, 'pkg/.venv/bin/tool'), source: 'project', display: 'pkg/.venv/bin/tool' });
    const onPath = findBinary({ names: ['other'], root: join(cwd, 'pkg'), cwd, path });
    expect(onPath.found).toMatchObject({ command: join(path, 'other'), source: 'path', display: join(path, 'other') });
    const missing = findBinary({ names: ['nope'], root: join(cwd, 'pkg'), cwd, path, bundled: () => undefined, bundledFrom: 'packages installed with x' });
    expect(missing).toEqual({
      looked: ['node_modules/.bin, .venv/bin, venv/bin (from pkg up to the working directory)', '$PATH', 'packages installed with x'],
    });
    expect(findBinary({ names: [join(path, 'tool')], root: cwd, cwd }).found?.source).toBe('absolute');
    expect(projectBinDirs(join(cwd, 'pkg'), cwd, ['.venv/bin'])).toEqual([join(cwd, 'pkg/.venv/bin'), join(cwd, '.venv/bin')]);
  });

  it('reads only absolute folders of PATH, once each, and follows symlinks to executables', () => {
    using dir = scratch();
    layout(dir.path, { 'real/tool': '#!/bin/sh\n' });
    mkdirSync(join(dir.path, 'links'));
    symlinkSync(join(dir.path, 'real/tool'), join(dir.path, 'links/tool'));
    const dirs = searchPath({ PATH: `.:${join(dir.path, 'links')}::relative/bin:${join(dir.path, 'links')}` });
    expect(dirs).toEqual([join(dir.path, 'links')]);
    expect(findExecutable('tool', dirs)).toBe(join(dir.path, 'links/tool'));
    expect(findExecutable('tool', [join(dir.path, 'real/tool')])).toBeUndefined();
  });
});

describe('a path as the model reads it', () => {
  it('is relative inside the working directory, absolute outside, ~ below home', () => {
    expect(displayPath('/w/src/a.ts', '/w')).toBe('src/a.ts');
    expect(displayPath('/w', '/w')).toBe('.');
    expect(displayPath('/w/..cache/x', '/w')).toBe('..cache/x');
    expect(displayPath('/other/a.ts', '/w')).toBe('/other/a.ts');
    expect(displayPath('/w2/a.ts', '/w')).toBe('/w2/a.ts');
    expect(displayPath('/home/me/.cargo/bin/x', '/w', { home: '/home/me' })).toBe('~/.cargo/bin/x');
    expect(displayPath('/home/me/w/a.ts', '/home/me/w', { home: '/home/me' })).toBe('a.ts');
    expect(displayPath('/home/meme/x', '/w', { home: '/home/me' })).toBe('/home/meme/x');
    expect(displayPath('/abs/a.ts', undefined)).toBe('/abs/a.ts');
  });
});
