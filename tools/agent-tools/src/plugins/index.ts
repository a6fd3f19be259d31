import type { HarnessPlugin } from '../plugin.js';
import { askPlugin } from './ask.js';
import { astPlugin } from './ast.js';
import { debugPlugin } from './debug.js';
import { evalPlugin } from './eval.js';
import { lspPlugin } from './lsp.js';
import { vibePlugin } from './vibe.js';

/** Every package the harness assembles, in listing order. */
export const plugins: readonly HarnessPlugin[] = [lspPlugin, astPlugin, debugPlugin, evalPlugin, askPlugin, vibePlugin];
