import { describe, expect, it } from 'vitest';
import { createRegistry, defineFactory, resultText } from '../src/index.js';
import { echoTool } from './helpers.js';

declare module '../src/index.js' {
  interface Resources {
    widgetServer?: { name: string };
  }
}

const widgetTools = defineFactory({
  name: '@test/widgets',
  needs: ['cwd', 'widgetServer'],
  create: (resources) => [echoTool(`widget_${resources.widgetServer.name}`)],
});

describe('the registrar', () => {
  it('registers a factory only when every resource it needs is present', async () => {
    await using without = createRegistry({ resources: { cwd: '/tmp' }, factories: [widgetTools] });
    expect(without.tools()).toEqual([]);
    expect(without.factories).toEqual([{ name: '@test/widgets', registered: false, missing: ['widgetServer'], tools: [] }]);

    await using withIt = createRegistry({ resources: { cwd: '/tmp', widgetServer: { name: 'a' } }, factories: [widgetTools] });
    expect(withIt.tools().map((t) => t.name)).toEqual(['widget_a']);
    expect(withIt.factories[0]).toMatchObject({ registered: true, tools: ['widget_a'] });
  });

  it('treats null and false resources as absent', async () => {
    const flag = defineFactory({ name: 'flag', needs: ['vibeMode'], create: () => [echoTool('flagged')] });
    await using off = createRegistry({ resources: { vibeMode: false }, factories: [flag] });
    await using nil = createRegistry({ resources: { vibeMode: null }, factories: [flag] });
    await using on = createRegistry({ resources: { vibeMode: true }, factories: [flag] });
    expect([off.tools().length, nil.tools().length, on.tools().length]).toEqual([0, 0, 1]);
  });

  it('records a factory that throws instead of crashing the harness', async () => {
    const errors: unknown[] = [];
    const broken = defineFactory({
      name: 'broken',
      needs: ['cwd'],
      create: () => {
        throw new Error('grammar file missing');
      },
    });
    await using registry = createRegistry({
      resources: { cwd: '/tmp' },
      factories: [broken, widgetTools],
      tools: [echoTool('own')],
      onError: (e) => errors.push(e),
    });
    expect(registry.factories[0]).toMatchObject({ name: 'broken', registered: false, error: 'grammar file missing' });
    expect(registry.tools().map((t) => t.name)).toEqual(['own']);
    expect(errors).toHaveLength(1);
  });

  it('refuses two tools with one name', () => {
    expect(() => createRegistry({ tools: [echoTool('same'), echoTool('same')] })).toThrow(/Two tools are named "same"/);
  });

  it('passes factory outputs with dispose to the registry lifecycle', async () => {
    let disposed = 0;
    const withState = defineFactory({
      name: 'stateful',
      needs: ['cwd'],
      create: () => ({ tools: [echoTool('s')], dispose: () => void disposed++ }),
    });
    const registry = createRegistry({ resources: { cwd: '/tmp' }, factories: [withState] });
    expect(resultText(await registry.call('s', { text: 'x' }))).toBe('s: x');
    await registry.dispose();
    await registry.dispose();
    expect(disposed).toBe(1);
  });
});
