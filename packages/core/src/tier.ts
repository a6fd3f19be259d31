/**
 * What a tool may do. The tier decides which surfaces see a tool at all, and whether the approval gate runs.
 * - `read`: no side effects.
 * - `write`: changes files.
 * - `exec`: starts or drives a process.
 */
export type Tier = 'read' | 'write' | 'exec';

/** Every tier, in order of growing power. */
export const TIERS: readonly Tier[] = Object.freeze(['read', 'write', 'exec']);

/** Whether calls of this tier pass through the harness's approval callback. */
export function needsApproval(tier: Tier): boolean {
  return tier !== 'read';
}
