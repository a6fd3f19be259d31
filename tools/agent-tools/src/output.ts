import type { AnyToolDefinition, FactoryStatus, ToolResult } from '@agent-tools/core';
import { toolSchema } from '@agent-tools/core';

/** A result as the CLI prints it: its text parts, with images named rather than dumped. */
export function formatResult(result: ToolResult): string {
  return result.content
    .map((part) =>
      part.type === 'text' ? part.text : `[image ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`,
    )
    .join('\n');
}

/** A result as one JSON object, the machine-readable contract of `call --json` and `repl --json`. */
export function resultJson(result: ToolResult): string {
  return JSON.stringify({ isError: result.isError, content: result.content, structured: result.structured ?? null });
}

/** The `list` output: one line per tool, then the packages that did not register and why. */
export function formatList(surface: string, tools: readonly AnyToolDefinition[], factories: readonly FactoryStatus[]): string {
  const width = Math.max(4, ...tools.map((t) => t.name.length));
  const lines = [`Tools on the "${surface}" surface (${tools.length}):`];
  for (const tool of tools) {
    const summary = tool.description.split(/(?<=\.)\s/)[0] ?? '';
    lines.push(`  ${tool.name.padEnd(width)}  ${tool.tier.padEnd(5)}  ${summary}`);
  }
  const absent = factories.filter((f) => !f.registered);
  if (absent.length > 0) {
    lines.push('', 'Not registered here:');
    for (const f of absent) {
      const why = f.error ? `failed: ${f.error}` : `missing ${f.missing.join(', ')}`;
      lines.push(`  ${f.name} (${why})`);
    }
  }
  return lines.join('\n');
}

/** The `list --json` output. */
export function listJson(surface: string, tools: readonly AnyToolDefinition[], factories: readonly FactoryStatus[]): string {
  return JSON.stringify(
    {
      surface,
      tools: tools.map((tool) => ({ ...toolSchema(tool), tier: tool.tier, parallelSafe: tool.parallelSafe })),
      factories,
    },
    null,
    2,
  );
}
