import { describe, expect, it } from 'vitest';
import { admits, approveAll, builtinSurfaces, createRegistry, defaultSurface, defineSurface, resultText } from '../src/index.js';
import { planSurface, subagentSurface } from '../src/surface.js';
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

  it('answers a call to a tool the surface does not admit as an unknown tool, saying why and what to use', async () => {
    const family = [...tools, echoTool('ast_grep', 'read'), echoTool('ast_edit', 'write')];
    await using registry = createRegistry({ tools: family, approve: approveAll });
    const unknown = await registry.call('nonexistent', {}, { surface: 'plan' });
    expect(resultText(unknown)).toBe('Unknown tool "nonexistent". The tools available here are: look, ast_grep.');
    const hidden = await registry.call('ast_edit', {}, { surface: 'plan' });
    expect(hidden.isError).toBe(true);
    expect(resultText(hidden)).toBe(
      'Unknown tool "ast_edit": it is not available on the "plan" surface, which admits read-tier tools only (ast_edit is write-tier). Do not retry it here. To look instead, use ast_grep. The tools available here are: look, ast_grep.',
    );
    const run = await registry.call('run', {}, { surface: 'subagent' });
    expect(resultText(run)).toMatch(/^Unknown tool "run": it is not available on the "subagent" surface, which admits read-tier tools only \(run is exec-tier\)\. Do not retry it here\. The tools available here are: look, ast_grep\.$/);
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
