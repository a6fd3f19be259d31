import { CoreError } from './errors.js';
import { TIERS, type Tier } from './tier.js';

/**
 * A place where a model sees tools: a name plus the tiers it admits. A tool whose tier is not admitted is
 * absent from the surface's schema list, and a call to it is answered as an unknown tool (saying why, and what to use).
 */
export interface Surface {
  readonly name: string;
  readonly tiers: readonly Tier[];
}

/** Builds a surface, checking that it admits at least one known tier. */
export function defineSurface(name: string, tiers: readonly Tier[]): Surface {
  if (!name.trim()) throw new CoreError('invalid_definition', 'A surface needs a non-empty name.');
  const unknown = tiers.filter((tier) => !TIERS.includes(tier));
  if (unknown.length > 0) {
    throw new CoreError(
      'invalid_definition',
      `Surface "${name}" names unknown tiers ${unknown.join(', ')}; use ${TIERS.join(', ')}.`,
    );
  }
  return Object.freeze({ name, tiers: Object.freeze([...new Set(tiers)]) });
}

/** The normal surface: every tier. */
export const defaultSurface: Surface = defineSurface('default', TIERS);
/** Plan mode: read only. */
export const planSurface: Surface = defineSurface('plan', ['read']);
/** A read-only subagent: read only. */
export const subagentSurface: Surface = defineSurface('subagent', ['read']);

/** The built-in surfaces by name. */
export const builtinSurfaces: Readonly<Record<string, Surface>> = Object.freeze({
  default: defaultSurface,
  plan: planSurface,
  subagent: subagentSurface,
});

/** Whether the surface admits tools of this tier. */
export function admits(surface: Surface, tier: Tier): boolean {
  return surface.tiers.includes(tier);
}
