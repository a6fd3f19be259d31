import { type AnyToolDefinition, type AnyToolFactory, approveAll, createRegistry, type Registry, type Resources, resultText, type ToolResult, toolSchema } from '@agent-tools/core';
import { disposeValue } from '@agent-tools/core/internal';

/** A call of one tool. */
export interface ContractCall {
  readonly tool: string;
  readonly args: unknown;
}

/** How the registry words a throw it did not expect: a tool's crash, never an answer written for the model. */
const CRASH = /^\S+ failed: /;

/**
 * What is wrong with a tool's answer to `{}`: a tool with a required parameter must refuse it with an error that
 * names one; a tool that refuses `{}` otherwise must still name a parameter; no tool may crash on it.
 */
export function emptyCallProblems(tool: AnyToolDefinition, result: ToolResult): string[] {
  const schema = toolSchema(tool).inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const required = schema.required ?? [];
  const params = Object.keys(schema.properties ?? {});
  const text = resultText(result);
  const problems: string[] = [];
  if (CRASH.test(text)) problems.push(`${tool.name} crashed on {}: ${text}`);
  if (required.length > 0 && !result.isError) problems.push(`${tool.name} accepted {} although it requires ${required.join(', ')}`);
  if (result.isError && params.length > 0 && !params.some((name) => names(text, name))) {
    problems.push(`${tool.name} refused {} without naming a parameter (${params.join(', ')}): ${text}`);
  }
  if (result.isError) problems.push(...sentenceProblems(tool.name, text));
  return problems;
}

/** Whether a sentence names a parameter as the model writes it: `name` or "name". */
function names(text: string, param: string): boolean {
  return text.includes(`\`${param}\``) || text.includes(`"${param}"`);
}

/** What is wrong with an answer given after the run or its resources were disposed: it must be an error, not a crash. */
export function afterDisposeProblems(call: ContractCall, result: ToolResult): string[] {
  const text = resultText(result);
  if (!result.isError) return [`${call.tool} answered after dispose as if nothing happened: ${text}`];
  if (CRASH.test(text)) return [`${call.tool} crashed after dispose: ${text}`];
  if (HUNG.test(text)) return [`${call.tool} hung after dispose until the registry's timeout: ${text}`];
  return sentenceProblems(call.tool, text);
}

/**
 * What is wrong with an error sentence as the model reads it: a package prefix meant for logs
 * (`[agent-tools/lsp]`), or two full stops where one sentence was joined to another.
 */
export function sentenceProblems(tool: string, text: string): string[] {
  const problems: string[] = [];
  if (/\[agent-tools\/[\w-]+\]/.test(text)) problems.push(`${tool} showed a package prefix to the model: ${text}`);
  if (/(?<!\.)\.\.(?!\.)/.test(text)) problems.push(`${tool} wrote a double full stop: ${text}`);
  return problems;
}

/** How the registry words a call it cut off at its timeout. */
const HUNG = /^\S+ did not finish within .+ and was cancelled/;

/**
 * Disposes every resource of a run twice over (two at once, then once more) and then the registry twice: returns
 * every failure that a dispose reported (a throw, a hang past `timeoutMs`) or that reached the registry's onError.
 */
export async function disposeTwiceProblems(
  registry: Registry,
  resources: Resources,
  errors: readonly unknown[],
  timeoutMs: number,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(resources)) {
    const first = await Promise.all([disposeValue(value, timeoutMs), disposeValue(value, timeoutMs)]);
    const again = await disposeValue(value, timeoutMs);
    for (const failure of [...first, again]) if (failure) problems.push(`disposing ${name}: ${failure}`);
  }
  await Promise.all([registry.dispose(), registry.dispose()]);
  await registry.dispose();
  for (const error of errors) problems.push(`reported to onError: ${error instanceof Error ? error.message : String(error)}`);
  return problems;
}

/** A registry for contract checks: every call approved, every unexpected throw collected. */
export function contractRegistry(resources: Resources, factory: AnyToolFactory, timeoutMs?: number): { registry: Registry; errors: unknown[] } {
  const errors: unknown[] = [];
  const registry = createRegistry({
    approve: approveAll,
    resources,
    factories: [factory],
    onError: (error) => errors.push(error),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  return { registry, errors };
}
