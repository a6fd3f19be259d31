/** The unhandled rejections of the process while it is held (`using`): a test that must leave none reads `seen`. */
export interface UnhandledRejections extends Disposable {
  readonly seen: readonly unknown[];
}

/**
 * Starts collecting the process's unhandled rejections; disposing stops. For tests of code that must never leave a
 * promise's rejection unhandled (a harness's process would end on one).
 */
export function unhandledRejections(): UnhandledRejections {
  const seen: unknown[] = [];
  const listen = (reason: unknown): void => void seen.push(reason);
  process.on('unhandledRejection', listen);
  return {
    seen,
    [Symbol.dispose]: () => void process.off('unhandledRejection', listen),
  };
}
