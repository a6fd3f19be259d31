import { readFileSync } from 'node:fs';
import { KEEPER_PATH } from '@agent-tools/core/process';

let source: string | undefined;

/**
 * Python run first in every eval Python kernel (`kernel-group.py`, beside this file): when the kernel exits, it ends
 * what its cells left running in its process group, with the keeper's own /proc and pidfd code (core's keeper.py).
 */
export function endGroupAtExit(): string {
  source ??= `${readFileSync(new URL('./kernel-group.py', import.meta.url), 'utf8')}
end_group_at_exit(${JSON.stringify(KEEPER_PATH)})
del end_group_at_exit
`;
  return source;
}
