import { createDebugSupervisor, debugTools } from '@agent-tools/debug';
import type { DemoOutcome, DemoStep, HarnessPlugin } from '../plugin.js';
import { DEMO_SETUP_COMMAND, missingPythonModules } from '../python-modules.js';

/**
 * The demo debugs the sample's py/stats.py with debugpy (pyproject.toml marks the Python root): a breakpoint
 * inside mean_quantity, a launch that stops there, the stack, the children of a variable, an expression, and a
 * run to the exit code. The variable reference is the one the launch answer handed out for `levels`.
 */
const demo: readonly DemoStep[] = [
  { title: 'debug adapters: which debuggers can run here, and why the others cannot', tool: 'debug', args: { action: 'adapters' } },
  {
    title: 'Breakpoints can be set before launch; the launch answer says which the adapter verified',
    tool: 'debug',
    args: { action: 'breakpoints', file: 'py/stats.py', lines: [16] },
  },
  {
    title: 'launch runs the program and answers with where it stopped, the source around it, and the locals',
    tool: 'debug',
    args: { action: 'launch', program: 'py/stats.py' },
  },
  {
    title: 'A second launch while the session runs is refused, naming the running session',
    tool: 'debug',
    args: { action: 'launch', program: 'py/stats.py' },
    expectError: true,
  },
  { title: 'The stack of the stopped thread, with frame ids', tool: 'debug', args: { action: 'stack' } },
  {
    title: 'The children of `levels`, by the reference the launch answer gave it',
    tool: 'debug',
    args: (earlier: readonly DemoOutcome[]) => ({ action: 'variables', reference: referenceOf(earlier, 'levels') }),
  },
  {
    title: 'evaluate in the stopped frame',
    tool: 'debug',
    args: { action: 'evaluate', expression: '[level.sku for level in levels if level.quantity > 5]' },
  },
  { title: 'continue runs to the exit: exit code and output', tool: 'debug', args: { action: 'continue' } },
  {
    title: 'With the session over, inspecting is an error that says how it ended and what to call',
    tool: 'debug',
    args: { action: 'stack' },
    expectError: true,
  },
];

/** The variable reference the launch snapshot handed out for a local, as a model would read it off the answer. */
function referenceOf(earlier: readonly DemoOutcome[], name: string): number | undefined {
  const launch = earlier.find((o) => (o.step.args as { action?: string }).action === 'launch' && !o.result.isError);
  const structured = launch?.result.structured as
    | { snapshot?: { locals?: { variables?: { items?: { name: string; reference?: number }[] } } } }
    | undefined;
  return structured?.snapshot?.locals?.variables?.items?.find((v) => v.name === name)?.reference;
}

/**
 * @agent-tools/debug in the harness: one supervisor per run (cheap; adapters start at launch). It finds
 * debugpy, lldb-dap, delve and dart on this machine's PATH, and the registry kills every session on dispose.
 */
/** The Python modules the debug demo needs (from tools/agent-tools/demo-apt-packages.txt). */
export const DEBUG_DEMO_MODULES: readonly string[] = ['debugpy'];

export const debugPlugin: HarnessPlugin = {
  factory: debugTools,
  resources: () => ({ debugSupervisor: createDebugSupervisor() }),
  demo,
  demoBlocker: () =>
    missingPythonModules(DEBUG_DEMO_MODULES).length
      ? `debugpy is not installed (Debian package python3-debugpy): \`${DEMO_SETUP_COMMAND}\` adds it, and what the other demos need`
      : undefined,
};
