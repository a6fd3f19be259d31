// Imports nothing, so core's own tests can use it from source (core cannot depend on test-utils, which depends on it).

/** Polls `check` until it holds; throws after `ms`. */
export async function waitUntil(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
