import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '@agent-tools/test-utils';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { identifiers } from './differential/positions.js';
import { rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// The rename differential: symbols drawn with a fixed seed from rxjs's sources are renamed with lsp_rename, and
// every file of the project must then be byte for byte what TypeScript's own findRenameLocations says (with
// prefix and suffix text off: the symbol itself is renamed, never aliased).
const SEED = 7_070_707;
const RENAMES = 8;

/** TypeScript's language service over the files on disk, reading each again when it changed. */
function languageService(dir: string, files: readonly string[]): ts.LanguageService {
  const config = ts.readConfigFile(join(dir, 'tsconfig.json'), ts.sys.readFile).config as object;
  const options = ts.parseJsonConfigFileContent(config, ts.sys, dir).options;
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [...files],
    getScriptVersion: (file) => {
      try {
        return String(statSync(file).mtimeMs);
      } catch {
        return '0';
      }
    },
    getScriptSnapshot: (file) => {
      const content = ts.sys.readFile(file);
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

describe('lsp_rename against TypeScript findRenameLocations on rxjs, byte-exact over every file', () => {
  it('renames drawn symbols exactly as TypeScript would', { timeout: 600_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    const files = rxjs.prepare(run.dir.path);
    const service = languageService(run.dir.path, files);
    const next = seededRandom(SEED);
    const candidates = files.filter(() => next() < 0.3).flatMap((file) => identifiers(run.dir.path, file));
    let done = 0;
    const mismatches: string[] = [];
    while (done < RENAMES && candidates.length > 0) {
      const p = candidates.splice(Math.floor(next() * candidates.length), 1)[0];
      if (!p) break;
      const source = service.getProgram()?.getSourceFile(p.path);
      if (!source || readFileSync(p.path, 'utf8').split(/\r\n|\r|\n/)[p.line - 1]?.slice(p.position.character, p.position.character + p.symbol.length) !== p.symbol) continue;
      const offset = ts.getPositionOfLineAndCharacter(source, p.position.line, p.position.character);
      const info = service.getRenameInfo(p.path, offset, { providePrefixAndSuffixTextForRename: false });
      if (!info.canRename || info.fileToRename) continue;
      const locations = service.findRenameLocations(p.path, offset, false, false, { providePrefixAndSuffixTextForRename: false });
      if (!locations || locations.some((l) => !l.fileName.startsWith(run.dir.path))) continue;
      const newName = `${p.symbol}Renamed${done}`;
      // The oracle: every file's text with TypeScript's locations replaced, from the end.
      const before = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
      const expected = new Map(before);
      const byFile = new Map<string, ts.RenameLocation[]>();
      for (const l of locations) byFile.set(l.fileName, [...(byFile.get(l.fileName) ?? []), l]);
      for (const [file, list] of byFile) {
        let content = before.get(file) as string;
        for (const l of [...list].sort((a, b) => b.textSpan.start - a.textSpan.start)) {
          content = `${content.slice(0, l.textSpan.start)}${l.prefixText ?? ''}${newName}${l.suffixText ?? ''}${content.slice(l.textSpan.start + l.textSpan.length)}`;
        }
        expected.set(file, content);
      }
      const result = await run.call('lsp_rename', { file: p.file, line: p.line, symbol: p.symbol, occurrence: p.occurrence, new_name: newName });
      done++;
      const where = `${p.file}:${p.line} \`${p.symbol}\` #${p.occurrence} → ${newName}`;
      if (result.isError) {
        mismatches.push(`${where}: the tool refused: ${text(result).slice(0, 300)}`);
        continue;
      }
      const differing = files.filter((file) => readFileSync(file, 'utf8') !== expected.get(file));
      if (differing.length > 0) mismatches.push(`${where}: ${differing.length} file(s) differ from TypeScript's rename, first ${differing[0]}`);
      expect(text(result)).toContain(`in ${byFile.size} file`);
    }
    expect(done).toBe(RENAMES);
    expect(mismatches).toEqual([]);
  });
});
