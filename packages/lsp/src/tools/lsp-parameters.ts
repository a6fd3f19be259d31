import { z } from 'zod';

/** Which of several occurrences of the symbol on its line is meant (shared by the tools that take a position). */
export const occurrenceParameter = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Which occurrence of symbol on the line, 1 = leftmost; needed only when it appears more than once.');

/** The actions of the `lsp` tool. */
export const LSP_ACTIONS = [
  'definition',
  'type_definition',
  'implementation',
  'references',
  'incoming_calls',
  'outgoing_calls',
  'hover',
  'symbols',
  'code_actions',
  'diagnostics',
  'status',
  'reload',
] as const;

/** Parameters of the `lsp` tool: the action and its arguments, flat. */
export const lspParameters = z.object({
  action: z.enum(LSP_ACTIONS).describe('What to ask; see the tool description for the arguments of each action.'),
  file: z
    .string()
    .optional()
    .describe('Path relative to the working directory. For diagnostics, "*" checks the whole project instead of one file.'),
  line: z.number().int().min(1).optional().describe('1-based line on which the symbol appears.'),
  symbol: z
    .string()
    .optional()
    .describe('The name to ask about, exactly as written on that line (for a.b.c the position is on c). Never a column.'),
  occurrence: occurrenceParameter,
  query: z.string().optional().describe('For symbols: a name or part of a name to search the whole workspace for.'),
  path: z
    .string()
    .optional()
    .describe(
      'For lists (references, incoming_calls, outgoing_calls, symbols with query, diagnostics): keep only results in this file or folder (relative to the working directory).',
    ),
  outside: z
    .boolean()
    .optional()
    .describe('For symbols with query: also list matches outside the working directory (libraries, the standard library). Without it they are listed only when nothing inside matches.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('For long lists: results to skip first (default 0), in the stable order of the answer. A cut answer names the exact call for the next page.'),
});

/** The validated arguments of an `lsp` call. */
export type LspParams = z.output<typeof lspParameters>;
