import { join } from 'node:path';
import { findExecutable, searchPath } from '@agent-tools/core/internal';
import type { AdapterConfig } from './adapter.js';

/** Dart (and Flutter's Dart): `dart debug_adapter` over stdio. */
export function dartAdapter(): AdapterConfig {
  return {
    id: 'dart',
    languages: 'Dart',
    extensions: ['.dart'],
    rootMarkers: ['pubspec.yaml'],
    transport: { kind: 'stdio' },
    adapterId: 'dart',
    async locate(ctx) {
      const flutter = ctx.env['FLUTTER_ROOT'];
      const dirs = [...searchPath(ctx.env), ...(flutter ? [join(flutter, 'bin')] : []), '/usr/lib/dart/bin'];
      const dart = findExecutable('dart', dirs);
      if (!dart) return { found: false, reason: 'dart is not on PATH, in $FLUTTER_ROOT/bin or in /usr/lib/dart/bin (install the Dart SDK)' };
      return { found: true, command: { command: dart, args: ['debug_adapter'] }, summary: `${dart} debug_adapter` };
    },
    launchArguments: ({ program, args, root }) => ({
      program,
      args: [...args],
      cwd: root,
      console: 'debugConsole',
      debugSdkLibraries: false,
      debugExternalPackageLibraries: false,
    }),
  };
}
