import { createLspSupervisor, lspTools } from '@agent-tools/lsp';
import type { DemoStep, HarnessPlugin } from '../plugin.js';

const lspDemo: readonly DemoStep[] = [
  { title: 'lsp status: which language servers can start here, and why the others cannot', tool: 'lsp', args: { action: 'status' } },
  {
    title: 'hover by line and symbol (never a column): signature and doc comment',
    tool: 'lsp',
    args: { action: 'hover', file: 'src/report.ts', line: 5, symbol: 'lowStock' },
  },
  {
    title: 'definition lands on the declaration in the other file',
    tool: 'lsp',
    args: { action: 'definition', file: 'src/report.ts', line: 5, symbol: 'lowStock' },
  },
  {
    title: 'references across files, grouped by file with each line',
    tool: 'lsp',
    args: { action: 'references', file: 'src/inventory.ts', line: 17, symbol: 'lowStock' },
  },
  { title: 'symbols: the outline of a file', tool: 'lsp', args: { action: 'symbols', file: 'src/inventory.ts' } },
  {
    title: 'An ambiguous symbol is an error that quotes the line and asks for "occurrence"',
    tool: 'lsp',
    args: { action: 'hover', file: 'src/inventory.ts', line: 18, symbol: 'item' },
    expectError: true,
  },
  {
    title: 'The same question with occurrence',
    tool: 'lsp',
    args: { action: 'hover', file: 'src/inventory.ts', line: 18, symbol: 'item', occurrence: 2 },
  },
  {
    title: 'diagnostics of one file (the sample has no @types/node, so `process` is unknown)',
    tool: 'lsp',
    args: { action: 'diagnostics', file: 'src/report.ts' },
  },
  { title: 'hover in Python (pyright)', tool: 'lsp', args: { action: 'hover', file: 'py/stats.py', line: 25, symbol: 'mean_quantity' } },
  {
    title: 'An edit that introduces a type error: the wrapped edit tool reports the new diagnostic at once',
    tool: 'edit',
    args: {
      path: 'src/report.ts',
      old_text: 'const value = (stockValue(items) / 100).toFixed(2);',
      new_text: 'const value: number = (stockValue(items) / 100).toFixed(2);',
    },
  },
  {
    title: 'Fixing it reports nothing new (the `process` error was there before the first write, so it is not reported)',
    tool: 'edit',
    args: {
      path: 'src/report.ts',
      old_text: 'const value: number = (stockValue(items) / 100).toFixed(2);',
      new_text: 'const value = (stockValue(items) / 100).toFixed(2);',
    },
  },
  {
    title: 'lsp_rename (write tier) renames across files, all or nothing',
    tool: 'lsp_rename',
    args: { file: 'src/inventory.ts', line: 17, symbol: 'lowStock', new_name: 'itemsToReorder' },
  },
  {
    title: 'Plan mode does not see lsp_rename',
    tool: 'lsp_rename',
    args: { file: 'src/inventory.ts', line: 17, symbol: 'itemsToReorder', new_name: 'x' },
    surface: 'plan',
    expectError: true,
  },
  { title: 'diagnostics "*": the whole project with tsc --noEmit and pyright', tool: 'lsp', args: { action: 'diagnostics', file: '*' } },
  { title: 'reload restarts the servers; status shows the new processes', tool: 'lsp', args: { action: 'reload' } },
];

/**
 * @agent-tools/lsp in the harness: one supervisor for the working directory, used both as the `lspSupervisor`
 * of the lsp tools and as the run's `diagnostics` source, so the harness's write and edit tools report the
 * diagnostics they introduce. Servers start on first use. TypeScript works without a node_modules in the
 * project: typescript-language-server and typescript come installed with @agent-tools/lsp.
 */
export const lspPlugin: HarnessPlugin = {
  factory: lspTools,
  resources: (env) => {
    const supervisor = createLspSupervisor({ cwd: env.cwd });
    return { lspSupervisor: supervisor, diagnostics: supervisor };
  },
  demo: lspDemo,
};
