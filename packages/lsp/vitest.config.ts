import { packageTests } from '../../vitest.shared.js';

// Real language servers start in seconds, and the machine is shared: one file at a time, generous limits.
export default packageTests({ fileParallelism: false, testTimeout: 90_000, hookTimeout: 60_000 });
