import { packageTests } from '../../vitest.shared.js';

// npm installs from the registry (a fresh machine has an empty cache) and whole-project typechecks.
export default packageTests({ testTimeout: 300_000, hookTimeout: 300_000 });
