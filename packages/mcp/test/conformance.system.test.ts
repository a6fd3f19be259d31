import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRegistry, defineTool, errorResult, imagePart, textResult } from '@agent-tools/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpHttpServer, serveHttp } from '../src/index.js';
import { PNG } from './fixture.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const SUITE = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');

/**
 * The public MCP conformance suite (@modelcontextprotocol/conformance), server scenarios, against serveHttp. The
 * scenarios that call named fixture tools (test_simple_text, ...) get those tools as ordinary registry tools, so
 * what is tested is this package's mapping of results, errors, images and progress. Scenarios that do not apply:
 * resources-*, prompts-*, completion-complete and logging-set-level (the server offers no resources, prompts,
 * completions or logging); tools-call-audio, tools-call-embedded-resource and tools-call-mixed-content (a registry
 * result holds text and images only); tools-call-with-logging (no logging); tools-call-sampling (no tool samples);
 * tools-call-elicitation, elicitation-sep1034-defaults and elicitation-sep1330-enums (they need a tool that elicits
 * a schema of the suite's choosing; here only ask_user and approvals elicit, with their own forms, tested in
 * serve.test.ts); json-schema-2020-12 (it needs a tool whose schema carries $defs, which no zod schema here has).
 */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-error',
  'tools-call-with-progress',
  'server-sse-multiple-streams',
  'server-sse-polling',
  'dns-rebinding-protection',
];

const none = z.object({});
const tools = [
  defineTool({ name: 'test_simple_text', tier: 'read', description: 'Simple text.', parameters: none, parallelSafe: true, execute: () => textResult('This is a simple text response for testing.') }),
  defineTool({
    name: 'test_image_content',
    tier: 'read',
    description: 'An image.',
    parameters: none,
    parallelSafe: true,
    execute: () => ({ content: [imagePart('image/png', PNG)], isError: false }),
  }),
  defineTool({ name: 'test_error_handling', tier: 'read', description: 'An error.', parameters: none, parallelSafe: true, execute: () => errorResult('This tool intentionally returns an error for testing') }),
  defineTool({
    name: 'test_tool_with_progress',
    tier: 'read',
    description: 'Reports progress three times.',
    parameters: none,
    parallelSafe: true,
    execute: async (_, ctx) => {
      for (let i = 0; i <= 100; i += 50) {
        ctx.reportProgress({ message: `${i}%`, progress: i, total: 100 });
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      return textResult('done');
    },
  }),
];

let http: McpHttpServer;
beforeAll(async () => {
  http = await serveHttp(() => createRegistry({ tools, progressIntervalMs: 10 }), { port: 0 });
});
afterAll(() => http.close());

describe('the MCP conformance suite (server scenarios that apply) against serveHttp', () => {
  it.each(APPLICABLE)('%s', { timeout: 60_000 }, async (scenario) => {
    const url = new URL(http.url);
    url.hostname = 'localhost'; // the suite's DNS-rebinding scenario sends a localhost Host header it expects accepted
    const { stdout } = await run(process.execPath, ['--import', join(here, 'conformance/node20-fs.mjs'), SUITE, 'server', '--url', url.href, '--scenario', scenario], {
      timeout: 55_000,
    }).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ''}${error.stderr ?? ''}` }));
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout);
    expect(summary, stdout).not.toBeNull();
    expect(summary?.[3], stdout).toBe('0');
    expect(stdout).not.toMatch(/FAILURE/);
  });
});
