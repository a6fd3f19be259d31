import { packageTests } from '../../vitest.shared.js';

// Searches start worker threads and the agreement test runs ast-grep: two test files at a time is plenty.
export default packageTests({ maxWorkers: 2 });
