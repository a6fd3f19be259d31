import { formatDuration, plural } from '@agent-tools/core';
import type { InstanceStatus, ServerStatus } from '../supervisor.js';

/** The supervisor's status as a model reads it: per server, what runs, and for the others what is missing. */
export function renderStatus(cwd: string, servers: readonly ServerStatus[]): string {
  const lines = [`Language servers for ${cwd}:`];
  for (const server of servers) {
    const exts = server.extensions.length > 6 ? `${server.extensions.slice(0, 6).join(' ')} …` : server.extensions.join(' ');
    lines.push(`${server.name} (${server.languages}; ${exts})`);
    for (const instance of server.instances) lines.push(`  ${instanceLine(instance)}`);
    const active = server.instances.some((i) => i.state === 'running' || i.state === 'starting');
    const binary = server.binary ? `binary ${server.binary.path}` : undefined;
    if (server.missing.length === 0) {
      const roots = server.roots.join(', ');
      if (!active) lines.push(`  can start for ${roots} on first use; ${binary}`);
      else if (server.instances.length === 0) lines.push(`  ${binary}`);
      continue;
    }
    const reasons: string[] = [];
    if (server.missing.includes('root marker')) reasons.push(`no root marker (${server.markers.join(', ')}) in the working directory or its subfolders`);
    if (server.missing.includes('binary')) reasons.push(`its binary was not found (looked in ${server.looked.join(', ')})`);
    else if (binary) reasons.push(binary);
    lines.push(`  ${active ? 'elsewhere' : 'cannot start here'}: ${reasons.join('; ')}`);
  }
  return lines.join('\n');
}

function instanceLine(instance: InstanceStatus): string {
  if (instance.state === 'running' || instance.state === 'starting') {
    const busy = instance.progress.length ? `, busy: ${instance.progress.join('; ')}` : '';
    const restarts = instance.starts > 1 ? `, started ${instance.starts} times` : '';
    const verb = instance.state === 'running' ? 'running' : 'starting';
    return `${verb} for ${instance.root}: pid ${instance.pid}, up ${formatDuration(instance.uptimeMs)}, ${plural(instance.openDocuments, 'open file')}${restarts}${busy}; binary ${instance.binary}`;
  }
  const why = instance.lastFailure ? `: ${instance.lastFailure}` : '';
  return `${instance.state} for ${instance.root}${why}`;
}
