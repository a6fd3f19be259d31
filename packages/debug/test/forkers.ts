/**
 * Debuggees that fork a helper which leaves their session (`setsid`) and sleeps ten minutes, for the tests that the
 * helper ends with the session. `then` is what the parent does after the fork, on the line marked `@after-fork`.
 */
export function pythonForker(then: string): string {
  return `import os, sys, time
pid = os.fork()
if pid == 0:
    os.setsid()
    time.sleep(600)
    os._exit(0)
print("forked helper", pid, flush=True)  # @after-fork
${then}
`;
}

/** The same in C: forks the helper, says so, and exits 0 without waiting for it. */
export const C_FORKER = `#include <stdio.h>
#include <unistd.h>

int main(void) {
  pid_t pid = fork();
  if (pid == 0) {
    setsid();
    sleep(600);
    return 0;
  }
  printf("forked helper %d\\n", (int)pid);
  fflush(stdout);
  return 0;
}
`;
