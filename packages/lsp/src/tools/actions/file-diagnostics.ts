import { type Diagnostic, errorDetail } from '@agent-tools/core';
import { rethrowUnexpected } from '@agent-tools/core/internal';
import { fileServers } from '../../diagnostics/file-servers.js';
import { findingsOf } from '../../diagnostics/findings.js';
import { LspError } from '../../errors.js';
import type { LanguageServer } from '../../server/language-server.js';
import type { ToolEnv } from '../shared.js';

/** A file's merged diagnostics: who checked it, and which servers could not, with why. */
export interface MergedFindings {
  readonly diagnostics: readonly Diagnostic[];
  /** The servers that answered, primary first. */
  readonly servers: readonly LanguageServer[];
  /** The names of the servers that checked the file: those that answered without a problem (a Biome that could not load its configuration answered nothing). */
  readonly checkedBy: readonly string[];
  /** `eslint: could not load eslint.config.js: …`: an additional server that did not check the file, and why. */
  readonly problems: readonly string[];
  /** The names of the servers whose project configuration leaves the file out (ESLint's ignores). */
  readonly ignoredBy: readonly string[];
}

/**
 * Asks every server of a file (the primary one and the additional ones whose root marker is found) for its
 * diagnostics of the file as it is on disk, at once. The primary server failing is the call's error; an additional
 * server failing, not starting, or not loading the project's configuration is a problem line, and the others'
 * diagnostics come anyway.
 */
export async function mergedFindings(env: ToolEnv, path: string, signal: AbortSignal): Promise<MergedFindings> {
  const { supervisor } = env;
  const servers = fileServers(supervisor.resolve(path), supervisor.additionalFor(path));
  if (!servers.ok) throw new LspError(servers.resolution.code, servers.resolution.reason);
  const answers = await Promise.all(
    servers.servers.map(async (target) => {
      try {
        const server = await supervisor.serverForRoot(target.config, target.root, target.binary, signal);
        const doc = server.open(path);
        if (!doc) throw new LspError('bad_position', `${path} could not be read.`);
        const found = await findingsOf(server, doc, Date.now() + server.requestTimeoutMs, signal);
        if (target.additional) supervisor.noteProblem(server, found.problem);
        return { server, found, error: undefined };
      } catch (error) {
        if (!target.additional) throw error;
        rethrowUnexpected(error);
        return { server: undefined, found: undefined, error: `${target.config.name}: ${errorDetail(error)}` };
      }
    }),
  );
  const problems = [
    ...servers.missing.map((m) => `${m.server}: cannot start: ${m.reason}`),
    ...answers.flatMap((a) => (a.error ? [a.error] : a.found?.problem ? [`${a.server?.config.name}: ${a.found.problem}`] : [])),
  ];
  return {
    diagnostics: answers.flatMap((a) => a.found?.diagnostics ?? []),
    servers: answers.flatMap((a) => (a.server ? [a.server] : [])),
    checkedBy: answers.flatMap((a) => (a.server && !a.found?.problem && !a.found?.ignored ? [a.server.config.name] : [])),
    problems,
    ignoredBy: answers.flatMap((a) => (a.server && a.found?.ignored ? [a.server.config.name] : [])),
  };
}
