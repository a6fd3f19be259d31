import type { HitCondition, HitConditionTranslation } from '../session/hit-condition.js';

/** How the supervisor reaches an adapter once its process runs. */
export type AdapterTransport =
  | { readonly kind: 'stdio' }
  /**
   * The adapter listens on a loopback port and prints where: `listening` must capture the port in its first
   * group (delve prints `DAP server listening at: 127.0.0.1:PORT` when given `--listen=127.0.0.1:0`, which
   * lets the kernel pick a free port without a race).
   */
  | {
      readonly kind: 'tcp';
      readonly listening: RegExp;
      /**
       * Whether the adapter process's own stdout and stderr carry the program's output (delve's debuggee writes
       * there); default true. js-debug sends the program's output as DAP events and prints only its own logs.
       */
      readonly programOutput?: boolean;
    }
  /**
   * The adapter listens on a local socket (a Unix domain socket, a named pipe on Windows) at a path in the session's
   * private folder: `listenArgs(path)` are added to its command, and `listening` matches what it prints once it
   * listens. No TCP lies between the session and the adapter, so Nagle's algorithm and delayed ACKs cannot hold a
   * message back (js-debug does not set TCP_NODELAY on its sockets), and no port is taken.
   */
  | {
      readonly kind: 'socket';
      listenArgs(path: string): readonly string[];
      readonly listening: RegExp;
      /** As for `tcp`. */
      readonly programOutput?: boolean;
    };

/** A command to start an adapter. */
export interface AdapterCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** The directory to start it in (delve must run in the Go module's directory); the session root when omitted. */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** Where an adapter's binary was looked for, and what was found. */
export type LocateResult =
  | {
      readonly found: true;
      readonly command: AdapterCommand;
      /** One line for `adapters`: what will run ("/usr/bin/python3 -m debugpy.adapter, debugpy 1.6.3"). */
      readonly summary: string;
      /** What the adapter configuration needs at launch (the debuggee's interpreter, say). */
      readonly hints?: Readonly<Record<string, unknown>>;
      /**
       * Where the program runs when that is not where the adapter runs ("the program runs under ~/.venv/bin/python"),
       * added to the summary by `adapters`; the launch answer names the program's interpreter itself.
       */
      readonly programNote?: string;
      /** How to reach this copy when it differs from the configuration's `transport` (an older release). */
      readonly transport?: AdapterTransport;
    }
  | {
      readonly found: false;
      /** Why nothing usable was found, naming every place looked in. */
      readonly reason: string;
    };

/** What `locate` may consult. */
export interface LocateContext {
  /** The session root: the nearest folder with a root marker, or the working directory. */
  readonly root: string;
  /** The working directory of the run. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/** What a launch configuration is built from. */
export interface LaunchInput {
  /** Absolute path of the program (a file, or a folder for delve's packages). */
  readonly program: string;
  readonly args: readonly string[];
  /** The session root, where the program runs. */
  readonly root: string;
  /** A private temporary folder of the session (delve builds its binary there), removed at its end. */
  readonly tempDir: string;
  readonly hints: Readonly<Record<string, unknown>>;
  /** The interpreter the model asked the program to run under (debugpy: `python`), overriding the project's. */
  readonly interpreter?: string;
}

/** What an attach configuration is built from. */
export interface AttachInput {
  readonly port: number;
  /** Always loopback: attach never reaches another machine. */
  readonly host: string;
  readonly root: string;
  readonly hints: Readonly<Record<string, unknown>>;
}

/**
 * One debug adapter the supervisor can start. The built-in ones are dart, debugpy, lldb and delve; a harness
 * adds its own by passing more configurations to the supervisor (a configuration with a built-in id
 * replaces it).
 */
export interface AdapterConfig {
  /** The id a model passes as `adapter` ("debugpy"). */
  readonly id: string;
  /** What it debugs, for listings ("Python"). */
  readonly languages: string;
  /** File extensions of programs it launches, with the dot (".py"). */
  readonly extensions: readonly string[];
  /** Whether it launches compiled native executables (ELF / Mach-O files). */
  readonly executables?: boolean;
  /** Whether it launches a folder as a program (delve: a Go package). */
  readonly folders?: boolean;
  /** Files whose presence marks a project root this adapter serves. */
  readonly rootMarkers: readonly string[];
  readonly transport: AdapterTransport;
  /** The DAP `adapterID` sent in `initialize`. */
  readonly adapterId?: string;
  /** The `context` of evaluate requests: lldb-dap treats `repl` input as debugger commands, so it uses `watch`. */
  readonly evaluateContext?: 'repl' | 'watch' | 'hover';
  /**
   * Where the program stops on errors without exception filters, for answers about an adapter that offers
   * none or no "uncaught" one ("delve stops on an unrecovered panic by itself").
   */
  readonly exceptionNote?: string;
  /**
   * Set for an adapter that prints logpoint messages as console text beside its own (lldb-dap): console lines that
   * match a logpoint's message then count as the program's output, except the adapter's own lines, which match
   * `adapterLines` ("Process 12 exited with status = 3"). Other adapters send logpoints as program output.
   */
  readonly consoleLogpoints?: {
    readonly adapterLines: RegExp;
    /** Console lines saying a log message could not be read, shown to the model as the adapter's warnings. */
    readonly errorLines?: RegExp;
  };
  /**
   * Why this adapter cannot print a log message as written, when it cannot (lldb-dap turns a logpoint whose message
   * it cannot read into a breakpoint that stops); such a logpoint is refused, not sent.
   */
  logMessageProblem?(message: string): string | undefined;
  /**
   * How a hit condition is sent to this adapter, or why it cannot keep it (lldb-dap only ignores the hits before a
   * count; debugpy cannot also require a `condition`). Default: as the tool takes it ("== 3", ">= 3", "% 3").
   */
  hitCondition?(condition: HitCondition, context: { readonly withCondition: boolean }): HitConditionTranslation;
  /** Why a function breakpoint by this name can never stop the program here, when it cannot (sent otherwise). */
  functionBreakpointProblem?(name: string): string | undefined;
  /**
   * Set when the adapter announces each debug target with a `startDebugging` reverse request (js-debug: every Node
   * process and worker thread): the target is opened as a child session on the same TCP server, requests are routed
   * to the session owning the thread they name, and children end with the parent.
   */
  readonly childSessions?: boolean;
  /**
   * Set when a program needs no project root: a root marker, when one is found, only sets the folder it runs in
   * (a lone `app.js` is debuggable; its `package.json` is optional).
   */
  readonly markerOptional?: boolean;
  /** Text the runtime prints on the program's stderr about the debugger itself ("Debugger attached."), left out of its output. */
  readonly outputNoise?: RegExp;
  /**
   * Why this adapter cannot launch `program` here, checked before it starts (a TypeScript file with no way to run
   * it), or `undefined`.
   */
  launchProblem?(input: Pick<LaunchInput, 'program' | 'root' | 'interpreter'>): string | undefined;
  /** What the program will run under, for the launch answer ("node v20.20.2 (/usr/bin/node) with tsx 4.23"). */
  runsUnder?(input: Pick<LaunchInput, 'program' | 'root' | 'hints' | 'interpreter'>): string | undefined;
  /**
   * The launched program's exit code when the adapter reports none (js-debug), from what the launch arguments set up
   * in the session's folder; `sessionNames` are the child sessions' names, first announced first.
   */
  exitCode?(input: { readonly tempDir: string; readonly sessionNames: readonly string[] }): number | undefined;
  /** Whether launch takes `python` (the interpreter the program runs under): debugpy. */
  readonly takesInterpreter?: boolean;
  /** A hint for an evaluate the adapter refused (delve: calls need the `call` prefix), from its message. */
  evaluateHint?(message: string): string | undefined;
  /** Finds the binary, project-local first. Cheap: called by `adapters` for every configuration. */
  locate(context: LocateContext): Promise<LocateResult>;
  /** The `launch` request's arguments. */
  launchArguments(input: LaunchInput): Record<string, unknown>;
  /**
   * How `attach` reaches a debuggee on a port: `adapter` starts the adapter and sends the arguments;
   * `connect` skips the adapter and speaks DAP to the port itself (a headless delve server is one).
   * Absent: this adapter cannot attach by port.
   */
  readonly attach?: {
    readonly via: 'adapter' | 'connect';
    arguments(input: AttachInput): Record<string, unknown>;
    /** How to start a debuggee that listens for this adapter, for an attach that found nothing on the port. */
    readonly listenHint?: string;
    /**
     * Whether the port may be tried before the adapter starts (node's inspector takes any number of connections).
     * Not for a listener that serves only its first connection (debugpy --wait-for-client, lldb-server gdbserver).
     */
    readonly probe?: boolean;
  };
}
