import type { AnyToolDefinition, Tier } from '@agent-tools/core';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** Titles a person reads in an MCP client's tool list, for the tools this project ships. */
const TITLES: Readonly<Record<string, string>> = Object.freeze({
  lsp: 'Language server queries',
  lsp_rename: 'Rename a symbol',
  lsp_fix: 'Apply a code action',
  ast_grep: 'Structural code search',
  ast_tree: 'Show how code parses',
  ast_edit: 'Stage a structural rewrite',
  resolve: 'Accept or discard a staged edit',
  debug: 'Debugger',
  eval: 'Run code in a persistent kernel',
  ask_user: 'Ask the user',
  vibe_spawn: 'Start a background worker',
  vibe_send: 'Message a background worker',
  vibe_wait: 'Wait for a background worker',
  vibe_kill: 'Stop a background worker',
  vibe_list: 'List background workers',
  read: 'Read a file',
  write: 'Write a file (with diagnostics)',
  edit: 'Edit a file (with diagnostics)',
});

/** A tool's title: the known one, the caller's, or its name as words (`my_tool` → `My tool`). */
export function toolTitle(tool: AnyToolDefinition, titles: Readonly<Record<string, string>> = {}): string {
  const known = titles[tool.name] ?? TITLES[tool.name];
  if (known) return known;
  const words = tool.name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The MCP annotations of a tier. Clients decide from them whether to confirm a call with their human, so a tier
 * never claims less than it may do: read is read-only; write changes files (destructive, not idempotent: an edit
 * applied twice is not the edit applied once); exec starts or drives a process, which may do anything, so it is
 * neither read-only nor idempotent, is left destructive (the spec's default) and may reach the outside world.
 */
export function tierAnnotations(tier: Tier, title: string): ToolAnnotations {
  switch (tier) {
    case 'read':
      return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false };
    case 'write':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
    case 'exec':
      return { title, readOnlyHint: false, idempotentHint: false, openWorldHint: true };
  }
}
