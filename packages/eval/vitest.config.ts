import { packageTests } from '../../vitest.shared.js';

// Real Jupyter servers and kernels: one test file at a time keeps a shared 2-core machine responsive.
export default packageTests({ testTimeout: 60_000, hookTimeout: 60_000, fileParallelism: false });
