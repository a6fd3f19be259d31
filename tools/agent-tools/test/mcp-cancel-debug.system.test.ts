import { envMarker, markedProcesses, tempDir, waitForNoMarked, waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { stdioClient, textOf } from './mcp-client.js';

// Issue #19: notifications/cancelled aborts the call through its AbortSignal, and a cancelled debug launch leaves no
// process. The launch waits for its first stop, which this program reaches only after ten minutes.
const LOOP = 'import time\nprint("started", flush=True)\ntime.sleep(600)\nprint("never")  # line 4\n';

describe('agent-tools mcp: a cancelled debug launch', () => {
  it('leaves no debuggee and no adapter, and the next launch in the session works', { timeout: 120_000 }, async () => {
    await using dir = tempDir({ 'pyproject.toml': '[project]\nname = "x"\n', 'loop.py': LOOP, 'ok.py': 'x = 1\nprint(x)  # line 2\n' }, 'agent-tools-mcp-');
    const marker = envMarker();
    await using link = await stdioClient(['--cwd', dir.path, '--approve', 'yes'], { env: marker.env });
    const debug = (args: Record<string, unknown>) => ({ name: 'debug', arguments: args });
    expect(textOf(await link.client.callTool(debug({ action: 'breakpoints', file: 'loop.py', lines: [4] })))).toContain('loop.py');

    const controller = new AbortController();
    const launch = link.client.callTool(debug({ action: 'launch', program: 'loop.py' }), undefined, { signal: controller.signal, timeout: 110_000 });
    const debuggee = () => markedProcesses(marker).filter((p) => p.command.endsWith('loop.py'));
    await waitUntil(() => debuggee().length > 0, 60_000);
    expect(markedProcesses(marker).some((p) => p.command.includes('debugpy'))).toBe(true);
    controller.abort('the user changed their mind');
    await expect(launch).rejects.toThrow();

    // The session's debug processes end; the server itself (and its keeper-free parts) stays for the next call.
    await waitUntil(() => markedProcesses(marker).every((p) => !p.command.endsWith('loop.py') && !p.command.includes('debugpy')), 10_000);
    const status = textOf(await link.client.callTool(debug({ action: 'status' })));
    expect(status).toMatch(/^No debug session is running\./);
    expect(status).toContain('The last one: The session failed to start: it was cancelled before the program stopped (the user changed their mind); its processes were stopped. Call launch');

    expect(textOf(await link.client.callTool(debug({ action: 'breakpoints', file: 'ok.py', lines: [2] })))).toContain('ok.py');
    const again = await link.client.callTool(debug({ action: 'launch', program: 'ok.py' }));
    expect(again.isError, textOf(again)).toBeFalsy();
    expect(textOf(again)).toContain('ok.py:2');
    await link.client.callTool(debug({ action: 'terminate' }));
    await link.client.close();
    expect(await waitForNoMarked(marker, 5000)).toEqual([]);
  });
});
