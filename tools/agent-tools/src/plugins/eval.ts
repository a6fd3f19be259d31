import { createKernelFactory, evalTools, type JupyterEnvironment } from '@agent-tools/eval';
import type { DemoStep, HarnessPlugin } from '../plugin.js';
import { DEMO_SETUP_COMMAND, missingPythonModules, SYSTEM_PYTHON } from '../python-modules.js';
import { evalPresent, jupyterUrlFromEnv } from './presence.js';

const PYTHON = SYSTEM_PYTHON;

/**
 * The Jupyter server of an isolated environment, when the harness runs in one: `AGENT_TOOLS_JUPYTER_URL` and
 * `AGENT_TOOLS_JUPYTER_TOKEN`. Without them eval starts its own server on loopback at the first cell.
 */
function environmentFromEnv(): JupyterEnvironment | undefined {
  const baseUrl = jupyterUrlFromEnv();
  if (!baseUrl) return undefined;
  return { baseUrl, token: process.env['AGENT_TOOLS_JUPYTER_TOKEN'] ?? '' };
}

const evalDemo: readonly DemoStep[] = [
  {
    title: 'eval: a Python cell imports the sample project and returns its last expression',
    tool: 'eval',
    args: {
      description: 'Load the stock levels and average them',
      code: 'import sys\nsys.path.insert(0, "py")\nfrom stats import Level, below, mean_quantity\nstock = [Level("A1", 3), Level("B2", 10), Level("C3", 7)]\nmean_quantity(stock)',
    },
  },
  {
    title: "eval: a second cell reuses the first cell's variables",
    tool: 'eval',
    args: { description: 'List the items below five in stock', code: 'below(stock, 5)' },
  },
  {
    title: 'eval: a pandas DataFrame comes back as a table',
    tool: 'eval',
    args: {
      description: 'Read the levels CSV into a DataFrame',
      code: 'import pandas as pd\nlevels = pd.read_csv("eval/levels.csv")\nlevels[levels.quantity < levels.reorder_at]',
    },
  },
  {
    title: "eval: a cell calls the harness's read tool through the bridge (same approval and rules as the model)",
    tool: 'eval',
    args: {
      description: 'Read stats.py through the harness read tool',
      code: 'source = tool("read", {"path": "py/stats.py", "limit": 6})\nprint(source)\nsource.structured',
    },
  },
  {
    title: 'eval: JavaScript cells run on Node with top-level await and the same bridge',
    tool: 'eval',
    args: {
      language: 'javascript',
      description: 'Count the exported functions in inventory.ts',
      code: 'const text = await tool("read", { path: "src/inventory.ts" });\ntext.split("\\n").filter((line) => line.includes("export function")).length',
    },
  },
  {
    title: 'eval: the description is only the transcript label (5 to 10 words advised): a short one still runs the cell',
    tool: 'eval',
    args: { description: 'compute', code: '1 + 1' },
  },
];

/** The Python modules the eval demo needs (from tools/agent-tools/demo-apt-packages.txt). */
export const EVAL_DEMO_MODULES: readonly string[] = ['jupyter_server', 'ipykernel', 'pandas'];

/**
 * @agent-tools/eval in the harness: a kernel factory for the working directory (free to create; the Jupyter
 * server starts at the first cell and stops with the run), on the isolated environment's server when the
 * environment variables name one.
 */
export const evalPlugin: HarnessPlugin = {
  factory: evalTools,
  resources: (env) => {
    if (!evalPresent()) return {};
    const environment = environmentFromEnv();
    return {
      kernelFactory: createKernelFactory({
        cwd: env.cwd,
        python: PYTHON,
        ...(environment ? { environment: () => environment } : {}),
      }),
    };
  },
  demo: evalDemo,
  demoBlocker: () => {
    if (environmentFromEnv()) return undefined;
    const missing = missingPythonModules(EVAL_DEMO_MODULES);
    return missing.length
      ? `${PYTHON} lacks ${missing.join(', ')} (Debian packages jupyter-server, python3-ipykernel, python3-pandas): \`${DEMO_SETUP_COMMAND}\` adds them, and what the other demos need`
      : undefined;
  },
};
