import { admits, type Surface, TIERS } from '@agent-tools/core';

/** Whether a surface admits every tier: the only kind a worker with the full command may be started for. */
export function admitsEverything(surface: Surface): boolean {
  return TIERS.every((tier) => admits(surface, tier));
}

/** Whether a worker run for `worker` would be steered by a caller on `caller` with more power than the caller has. */
export function widens(caller: Surface, worker: Surface): boolean {
  return worker.tiers.some((tier) => !admits(caller, tier));
}

/** "the plan surface (read only)", "the default surface (read, write and exec)". */
export function surfacePhrase(surface: Surface): string {
  const tiers = surface.tiers.length === 1 && surface.tiers[0] === 'read' ? 'read only' : listTiers(surface.tiers);
  return `the ${surface.name} surface (${tiers})`;
}

/** `read,write,exec`: the tiers as `AGENT_TOOLS_TIERS` carries them. */
export function tiersValue(surface: Surface): string {
  return surface.tiers.join(',');
}

function listTiers(tiers: readonly string[]): string {
  if (tiers.length <= 1) return tiers.join('');
  return `${tiers.slice(0, -1).join(', ')} and ${tiers.at(-1)}`;
}
