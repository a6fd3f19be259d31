/**
 * @agent-tools/core/internal: helpers for authors of agent-tools packages (caps, wording, discovery of project
 * roots and binaries, multi-file changes, timers, terminal text). Not the harness API, which is the root entry; these
 * change with the packages that use them, in minor versions.
 */
export { causedByAbort } from './abort-cause.js';
export { BackgroundErrors, type BackgroundReporter } from './background-errors.js';
export { type Capped, capList, capText, capTextTail } from './caps.js';
export { formatDiagnostic } from './diagnostics/format.js';
export {
  type BinaryLookup,
  type BinarySearch,
  type BinarySource,
  type FoundRoot,
  findBinary,
  findExecutable,
  findRoot,
  IGNORED_DIRS,
  isExecutable,
  projectBinDirs,
  type ResolvedCommand,
  searchPath,
} from './discovery.js';
export { disposeValue } from './dispose.js';
export { messageOf, rethrowUnexpected } from './errors.js';
export {
  applyFileChanges,
  type ChangedFile,
  type FileChange,
  type FileChangesOptions,
  type FileChangesOutcome,
} from './file-changes.js';
export { outsideFileLocks } from './file-lock.js';
export { guardedInterval } from './guarded-interval.js';
export { afterDelay } from './long-timer.js';
export { onAbort } from './on-abort.js';
export { isWithin } from './paths.js';
export { notRegularFile, readRegularFile, specialFileKind } from './regular-file.js';
export { collapseCarriageReturns, stripTerminalCodes } from './terminal-text.js';
export { countOfTotal, formatDuration, formatLimit, nounFor, plural, shownNote } from './wording.js';
