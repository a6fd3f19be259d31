import { type Diagnostic, errorDetail, type ToolProgress } from '@agent-tools/core';
import { formatDuration, guardedInterval, plural, rethrowUnexpected } from '@agent-tools/core/internal';
import type { ServerConfig } from '../config/server-config.js';
import { fromLspDiagnostic } from '../diagnostics/convert.js';
import { findBinary } from '../discovery/binary.js';
import { discoverRoots, listSourceFiles } from '../discovery/root.js';
import type { LanguageServer } from '../server/language-server.js';
import type { LspSupervisor } from '../supervisor.js';
import { displayPath, isInside, relativeText } from '../util/paths.js';
import type { CheckerOutput, CheckerRun } from './checker.js';
import { type RunOutcome, runChecker } from './run-checker.js';

/** The whole-project check of one server's project root. */
export interface ProjectCheckPart {
  readonly server: string;
  readonly languages: string;
  /** Workspace-relative root. */
  readonly root: string;
  /** How it was checked: the checker's command, `workspace diagnostics`, or `opened N files`. */
  readonly method: string;
  /** Whether the result can be trusted as complete. A part that is not verified is never clean. */
  readonly verified: boolean;
  readonly reason?: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly note?: string;
}

const SWEEP_MAX_FILES = 300;

/**
 * `diagnostics "*"`: checks every project root of every configured server found in the working directory.
 * Per root: the server's workspace diagnostics when it offers them, else the language's own checker
 * (`tsc --noEmit`, `pyright`, `go vet`) from the project-local binary, else every source file opened with the
 * server. A checker that fails to run makes its part "not verified", never clean. `report` hears which root is
 * being checked, how many are done, and (every second) for how long; `onBug` hears a bug of that timer.
 */
export async function checkProject(
  supervisor: LspSupervisor,
  signal?: AbortSignal,
  report?: (progress: ToolProgress) => void,
  onBug?: (error: unknown) => void,
): Promise<ProjectCheckPart[]> {
  const targets: { config: ServerConfig; root: string }[] = [];
  for (const config of supervisor.servers) {
    if (config.projectWide === false) continue;
    const roots = new Set(discoverRoots(supervisor.cwd, config.rootMarkers));
    for (const server of supervisor.running()) {
      if (server.config.id === config.id && isInside(supervisor.cwd, server.root)) roots.add(server.root);
    }
    for (const root of [...roots].sort()) targets.push({ config, root });
  }
  const parts: ProjectCheckPart[] = [];
  for (const [done, { config, root }] of targets.entries()) {
    if (signal?.aborted) break;
    const what = `${config.languages} at ${displayPath(root, supervisor.cwd)}`;
    const stopReporting = reportChecking(report, what, done, targets.length, onBug);
    parts.push(await checkRoot(supervisor, config, root, signal).finally(stopReporting));
  }
  return parts;
}

/** Says which project is being checked, at once and then every second with how long it has taken. */
function reportChecking(
  report: ((progress: ToolProgress) => void) | undefined,
  what: string,
  done: number,
  total: number,
  onBug: ((error: unknown) => void) | undefined,
): () => void {
  if (!report) return () => undefined;
  const started = Date.now();
  const send = (): void => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    const elapsed = seconds > 0 ? ` for ${formatDuration(seconds * 1000)}` : '';
    report({ message: `checking ${what}${elapsed} (project ${done + 1} of ${total})`, progress: done, total });
  };
  send();
  // Nothing here is expected to throw (the registry guards the harness's progress listener): a throw is a bug, told
  // once, and the reports stop.
  const timer = guardedInterval(send, 1000, onBug);
  return () => clearInterval(timer);
}

async function checkRoot(supervisor: LspSupervisor, config: ServerConfig, root: string, signal?: AbortSignal): Promise<ProjectCheckPart> {
  const base = { server: config.name, languages: config.languages, root: displayPath(root, supervisor.cwd) };
  // A server that cannot lint without the project's own package (ESLint) would answer every file with nothing.
  const unmet = config.requires?.({ root, cwd: supervisor.cwd });
  if (unmet) return { ...base, method: 'none', verified: false, reason: unmet, diagnostics: [] };
  const running = supervisor.running().find((s) => s.config.id === config.id && s.root === root && s.state === 'running');
  if (running?.diagnostics.workspace) return viaWorkspaceDiagnostics(running, base, supervisor, signal);

  let unavailable: string | undefined;
  if (config.projectCheck) {
    const checker = config.projectCheck;
    const context = { root, cwd: supervisor.cwd, path: supervisor.env['PATH'] };
    const plan = checker.plan(context);
    if ('unavailable' in plan) unavailable = `${checker.name} cannot run: ${plan.unavailable}`;
    else {
      const outcome = await runSteps(plan, root, checker.timeoutMs ?? supervisor.checkTimeoutMs, supervisor.env, signal);
      // A checker's own words name files by absolute path; the model reads them workspace-relative.
      const said = (text: string) => relativeText(text, supervisor.cwd);
      if (!outcome.ok) return { ...base, method: plan.title, verified: false, reason: said(outcome.reason), diagnostics: [] };
      const parsed = checker.parse(outcome.output, context);
      if ('failed' in parsed) return { ...base, method: plan.title, verified: false, reason: said(parsed.failed), diagnostics: [] };
      if ('incomplete' in parsed) return { ...base, method: plan.title, verified: false, reason: said(parsed.incomplete), diagnostics: parsed.diagnostics };
      return {
        ...base,
        method: plan.title,
        verified: !outcome.truncated,
        ...(outcome.truncated ? { reason: 'its output was too long and was cut; the list is incomplete' } : {}),
        diagnostics: parsed,
      };
    }
  }

  const binary = findBinary({
    names: config.binaries,
    root,
    cwd: supervisor.cwd,
    path: supervisor.env['PATH'],
    ...(config.bundled ? { bundled: config.bundled } : {}),
  });
  if (!binary.found) {
    const why = [unavailable, `the server binary was not found (looked in ${binary.looked.join(', ')})`].filter(Boolean).join('; ');
    return { ...base, method: 'none', verified: false, reason: why, diagnostics: [] };
  }
  let server: LanguageServer;
  try {
    server = await supervisor.serverForRoot(config, root, binary.found, signal);
  } catch (error) {
    // A server that cannot start (an LspError) leaves this part unverified, saying why; a bug propagates.
    rethrowUnexpected(error);
    return { ...base, method: 'none', verified: false, reason: [unavailable, errorDetail(error)].filter(Boolean).join('; '), diagnostics: [] };
  }
  if (server.diagnostics.workspace) return viaWorkspaceDiagnostics(server, base, supervisor, signal);
  return viaSweep(server, base, supervisor, unavailable, signal);
}

/** Runs a checker's command and the ones that follow it; the first that cannot run ends the check. */
async function runSteps(plan: CheckerRun, root: string, timeoutMs: number, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<RunOutcome> {
  const first = await runChecker(plan, root, timeoutMs, env, signal);
  if (!first.ok || !plan.followedBy?.length) return first;
  const more: CheckerOutput[] = [];
  let truncated = first.truncated;
  for (const step of plan.followedBy) {
    const outcome = await runChecker(step, root, timeoutMs, env, signal);
    if (!outcome.ok) return outcome;
    truncated ||= outcome.truncated;
    more.push(outcome.output);
  }
  return { ok: true, truncated, output: { ...first.output, more } };
}

async function viaWorkspaceDiagnostics(
  server: LanguageServer,
  base: Pick<ProjectCheckPart, 'server' | 'languages' | 'root'>,
  supervisor: LspSupervisor,
  signal?: AbortSignal,
): Promise<ProjectCheckPart> {
  try {
    const byFile = await server.diagnostics.workspaceReport(supervisor.checkTimeoutMs / 3, signal);
    const diagnostics = [...byFile].flatMap(([path, list]) => list.map((d) => fromLspDiagnostic(path, d)));
    return { ...base, method: 'workspace diagnostics of the server', verified: true, diagnostics };
  } catch (error) {
    // A server that fails the request (an LspError: timeout, exit) leaves this part unverified; a bug propagates.
    rethrowUnexpected(error);
    return { ...base, method: 'workspace diagnostics of the server', verified: false, reason: errorDetail(error), diagnostics: [] };
  }
}

/** Opens every source file of the root with the server and collects each one's diagnostics. */
async function viaSweep(
  server: LanguageServer,
  base: Pick<ProjectCheckPart, 'server' | 'languages' | 'root'>,
  supervisor: LspSupervisor,
  unavailable: string | undefined,
  signal?: AbortSignal,
): Promise<ProjectCheckPart> {
  const extensions = Object.keys(server.config.extensions);
  const { files, seen } = listSourceFiles(server.root, extensions, SWEEP_MAX_FILES);
  const method = `opening ${plural(files.length, 'file')} with ${server.config.name}`;
  const deadline = Date.now() + supervisor.checkTimeoutMs;
  const diagnostics: Diagnostic[] = [];
  const unanswered: string[] = [];
  const docs = files.map((file) => server.open(file)).filter((doc) => doc !== undefined);
  for (const doc of docs) {
    if (signal?.aborted) break;
    try {
      const list = await server.diagnostics.of(doc, deadline, signal);
      diagnostics.push(...list.map((d) => fromLspDiagnostic(doc.path, d)));
    } catch (error) {
      // A server that fails (an LspError: it timed out or exited) leaves the file unanswered; a bug propagates.
      rethrowUnexpected(error);
      unanswered.push(displayPath(doc.path, supervisor.cwd));
    }
  }
  const reasons = [
    unanswered.length ? `${unanswered.length} file(s) got no answer in time: ${unanswered.slice(0, 5).join(', ')}` : undefined,
    seen > files.length ? `only the first ${files.length} of ${seen} files were opened` : undefined,
  ].filter((r): r is string => r !== undefined);
  return {
    ...base,
    method,
    verified: reasons.length === 0,
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
    diagnostics,
    ...(unavailable ? { note: unavailable } : {}),
  };
}
