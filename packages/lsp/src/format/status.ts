import { formatDuration, plural } from '@agent-tools/core/internal';
import type { InstanceStatus, ServerStatus } from '../supervisor.js';

/** The supervisor's status as a model reads it: per server, what runs, and for the others what is missing. */
export function renderStatus(cwd: string, servers: readonly ServerStatus[]): string {
  const lines = [`Language servers for ${cwd}:`];
  for (const server of servers) {
    const exts = server.extensions.length > 6 ? `${server.extensions.slice(0, 6).join(' ')} …` : server.extensions.join(' ');
    const role = server.role === 'additional' ? '; additional: diagnostics and code actions beside the primary server' : '';
    lines.push(`${server.name} (${server.languages}; ${exts}${role})`);
    for (const instance of server.instances) lines.push(`  ${instanceLine(instance)}`);
    for (const unmet of server.unmet ?? []) lines.push(`  cannot start for ${unmet.root}: ${unmet.reason}`);
    for (const c of server.companions ?? []) {
      lines.push(c.found ? `  runs ${c.found} for its ${c.gives}` : `  ${c.binary} was not found on the search path: no ${c.gives} (${c.install})`);
    }
    const active = server.instances.some((i) => i.state === 'running' || i.state === 'starting');
    const binary = server.binary ? `binary ${server.binary.path}` : undefined;
    if (server.missing.length === 0) {
      const startable = server.roots.filter((root) => !server.unmet?.some((u) => u.root === root));
      if (!active && startable.length > 0) lines.push(`  can start for ${startable.join(', ')} on first use; ${binary}`);
      else if (!active) continue;
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
    const problem = instance.problem ? `; NOT CHECKING the last file asked about: ${instance.problem}` : '';
    return `${verb} for ${instance.root}: pid ${instance.pid}, up ${formatDuration(instance.uptimeMs)}, ${plural(instance.openDocuments, 'open file')}${restarts}${busy}; binary ${instance.binary}${problem}`;
  }
  const why = instance.lastFailure ? `: ${instance.lastFailure}` : '';
  return `${instance.state} for ${instance.root}${why}`;
}
