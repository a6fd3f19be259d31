import { describe, expect, it } from 'vitest';
import {
  admits,
  approveAll,
  builtinSurfaces,
  createRegistry,
  defaultSurface,
  defineSurface,
  planSurface,
  resultText,
  subagentSurface,
} from '../src/index.js';
import { echoTool } from './helpers.js';

const tools = [echoTool('look', 'read'), echoTool('change', 'write'), echoTool('run', 'exec')];

describe('tiers and surfaces', () => {
  it('has the three built-in surfaces: default sees every tier, plan and subagent only read', () => {
    expect(Object.keys(builtinSurfaces).sort()).toEqual(['default', 'plan', 'subagent']);
    expect(defaultSurface.tiers).toEqual(['read', 'write', 'exec']);
    expect(planSurface.tiers).toEqual(['read']);
    expect(subagentSurface.tiers).toEqual(['read']);
    expect(admits(planSurface, 'write')).toBe(false);
    expect(admits(defaultSurface, 'exec')).toBe(true);
  });

  it('lists only the admitted tools in each surface schema list', async () => {
    await using registry = createRegistry({ tools });
    expect(registry.schemas('default').map((s) => s.name)).toEqual(['look', 'change', 'run']);
    expect(registry.schemas('plan').map((s) => s.name)).toEqual(['look']);
    expect(registry.schemas(subagentSurface).map((s) => s.name)).toEqual(['look']);
  });

  it('answers a call to a tool the surface does not admit exactly like a call to an unknown tool', async () => {
    await using registry = createRegistry({ tools, approve: approveAll });
    const hidden = await registry.call('change', {}, { surface: 'plan' });
    const unknown = await registry.call('nonexistent', {}, { surface: 'plan' });
    expect(hidden.isError).toBe(true);
    expect(resultText(hidden)).toBe(resultText(unknown).replace('nonexistent', 'change'));
    expect(resultText(hidden)).toBe('Unknown tool "change". The tools available here are: look.');
    expect(resultText(hidden)).not.toMatch(/approv/i);
  });

  it('takes surfaces as data: a custom surface admits what it names', async () => {
    const reviewer = defineSurface('reviewer', ['read', 'exec']);
    await using registry = createRegistry({ tools, surfaces: [reviewer], approve: approveAll });
    expect(registry.tools('reviewer').map((t) => t.name)).toEqual(['look', 'run']);
    expect((await registry.call('run', {}, { surface: 'reviewer' })).isError).toBe(false);
    expect((await registry.call('change', {}, { surface: 'reviewer' })).isError).toBe(true);
  });

  it('uses the registry default surface for calls that name none', async () => {
    await using registry = createRegistry({ tools, surface: planSurface, approve: approveAll });
    expect(registry.tools().map((t) => t.name)).toEqual(['look']);
    expect((await registry.call('run', {})).isError).toBe(true);
  });

  it('refuses surfaces with unknown tiers or no name, and unknown surface names', async () => {
    expect(() => defineSurface('x', ['read', 'admin' as never])).toThrow(/unknown tiers admin/);
    expect(() => defineSurface(' ', ['read'])).toThrow(/non-empty name/);
    await using registry = createRegistry({ tools });
    expect(() => registry.tools('nope')).toThrow(/Unknown surface "nope"; known surfaces: default, plan, subagent/);
    const result = await registry.call('look', {}, { surface: 'nope' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/Unknown surface "nope"/);
  });
});
