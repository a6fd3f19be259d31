import { randomUUID } from 'node:crypto';
import type { Surface } from '@agent-tools/core';
import { expandTemplate, takesBriefArgument, templateArgs, uses } from './command-template.js';
import { VibeError } from './errors.js';
import type { WorkerTask } from './runner.js';
import { admitsEverything, surfacePhrase } from './surface-policy.js';

/** A command template and the options that decide how a run of it is told its brief. */
export type CommandTemplate = string | readonly string[];

/** How the process runner continues a worker's session instead of restarting it. */
export interface ResumeOptions {
  /** The command that continues a session on surfaces that admit write and exec; it must use `{session}`. */
  readonly command: CommandTemplate;
  /** The same for read-only surfaces (needs the runner's `readOnlyCommand`); without it they restart instead. */
  readonly readOnlyCommand?: CommandTemplate;
  /**
   * How the session id of a run is read from what the agent prints (standard output or error): the first capture
   * group of the first match. Without it, the runner makes up an id and passes it to the first run as `{session}`
   * (so the command must use `{session}`, as in `my-agent --session-id {session}`).
   */
  readonly sessionPattern?: RegExp;
}

/** The templates a process runner chooses from. */
export interface CommandSet {
  readonly command: CommandTemplate;
  readonly readOnlyCommand?: CommandTemplate | undefined;
  readonly resume?: ResumeOptions | undefined;
  readonly briefVia?: 'stdin' | 'argument' | undefined;
}

/** One run's process, as decided from the task. */
export interface PlannedRun {
  readonly program: string;
  readonly args: readonly string[];
  /** What goes to standard input ('' when the brief is an argument). */
  readonly stdin: string;
  /** The session id the runner made up for this run, to report at once (it is also `{session}` in the command). */
  readonly session: string | undefined;
}

/**
 * The templates of a process runner, checked once: which surfaces it can run on (read-only ones only with a
 * read-only command), whether it can resume there, and the command line of each run.
 */
export class ProcessCommands {
  readonly #full: string[];
  readonly #readOnly: string[] | undefined;
  readonly #resumeFull: string[] | undefined;
  readonly #resumeReadOnly: string[] | undefined;
  readonly #briefVia: 'stdin' | 'argument' | undefined;
  /** Where the session id comes from: made up by the runner, or read from the output. */
  readonly sessionPattern: RegExp | undefined;

  constructor(set: CommandSet) {
    this.#full = templateArgs(set.command);
    this.#readOnly = set.readOnlyCommand === undefined ? undefined : templateArgs(set.readOnlyCommand);
    this.#briefVia = set.briefVia;
    const resume = set.resume;
    this.sessionPattern = resume?.sessionPattern;
    if (!resume) return;
    this.#resumeFull = templateArgs(resume.command);
    this.#resumeReadOnly = resume.readOnlyCommand === undefined ? undefined : templateArgs(resume.readOnlyCommand);
    if (this.#resumeReadOnly && !this.#readOnly) {
      throw new VibeError('invalid_template', 'resume.readOnlyCommand is set but readOnlyCommand is not: give the read-only command of a first run too.');
    }
    for (const [name, args] of [['resume.command', this.#resumeFull], ['resume.readOnlyCommand', this.#resumeReadOnly]] as const) {
      if (args && !uses(args, 'session')) {
        throw new VibeError('invalid_template', `${name} must pass the session to continue as {session}, such as "my-agent --resume {session} -p {brief}".`);
      }
    }
    if (!this.sessionPattern) {
      const first = [['command', this.#full], ['readOnlyCommand', this.#resumeReadOnly ? this.#readOnly : undefined]] as const;
      for (const [name, args] of first) {
        if (args && !uses(args, 'session')) {
          throw new VibeError(
            'invalid_template',
            `To resume a session the runner must know its id: put {session} in ${name} (the runner then makes one up, as in "my-agent --session-id {session}") or give resume.sessionPattern to read it from the agent's output.`,
          );
        }
      }
    }
  }

  /** Whether a worker may run for this surface: every tier admitted, or a read-only command configured. */
  canRun(surface: Surface): boolean {
    return admitsEverything(surface) || this.#readOnly !== undefined;
  }

  /** Whether a session can be continued on this surface. */
  canResume(surface: Surface): boolean {
    return (admitsEverything(surface) ? this.#resumeFull : this.#resumeReadOnly) !== undefined;
  }

  /** The process of one run: the surface's command (or its resume command), placeholders filled in. */
  plan(task: WorkerTask, tierArgs: readonly string[]): PlannedRun {
    const full = admitsEverything(task.surface);
    const resumeTemplate = task.resume ? (full ? this.#resumeFull : this.#resumeReadOnly) : undefined;
    const template = resumeTemplate ?? (full ? this.#full : this.#readOnly);
    if (!template) {
      // The worker list never asks for this; a runner called directly must still not widen a read-only surface.
      throw new VibeError('surface', `no read-only command is configured, so no worker can run for ${surfacePhrase(task.surface)}.`);
    }
    const resuming = resumeTemplate !== undefined && task.resume !== undefined;
    const made = !resuming && uses(template, 'session') ? randomUUID() : undefined;
    const brief = resuming ? (task.resume?.message ?? '') : task.brief;
    const viaArgument = (this.#briefVia ?? (takesBriefArgument(template) ? 'argument' : 'stdin')) === 'argument';
    const values = {
      brief: viaArgument ? brief : '',
      tier: task.tier,
      label: task.label,
      id: task.workerId,
      run: String(task.run),
      surface: task.surface.name,
      session: resuming ? (task.resume?.session ?? '') : (made ?? ''),
    };
    const [program, ...args] = expandTemplate(template, values, tierArgs);
    return { program: program as string, args, stdin: viaArgument ? '' : brief, session: made };
  }
}
