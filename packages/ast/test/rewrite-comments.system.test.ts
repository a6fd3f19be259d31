import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { gofmtErrors, realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

describe('comments next to a metavariable travel with it (issue 21, item 3)', () => {
  it("go (net/http/fcgi): Close's leading comment stays in the body it describes", async () => {
    await using t = realWorkspace(loader, ['/usr/lib/go/src/net/http/fcgi/fcgi.go']);
    const result = await t.edit({
      pattern: 'func ($R *$T) Close() error {\n\t$$$BODY\n}',
      rewrite: 'func ($R *$T) Close() error {\n\tdefer trace()\n\t$$$BODY\n}',
      path: 'fcgi.go',
    });
    expect(result.structured.droppedComments).toEqual([]);
    expect(result.text).not.toContain('Loses:');
    await t.accept();
    expect(t.read('fcgi.go')).toContain(
      'func (w *streamWriter) Close() error {\n\tdefer trace()\n\t// send empty record to close the stream\n\treturn w.c.writeRecord(w.recType, w.reqId, nil)\n}\n',
    );
    expect(gofmtErrors(t.dir.join('fcgi.go'))).toBe('');
  });

  it('c (libpng pngtest.c): `if (p == NULL) /* after IDAT */` keeps its comment, its statement and its else chain', async () => {
    await using t = realWorkspace(loader, ['/usr/share/doc/libpng-dev/examples/pngtest.c']);
    const before = t.read('pngtest.c');
    const result = await t.edit({ pattern: 'if ($P == NULL) $S', rewrite: 'if (!$P) $S', path: 'pngtest.c' });
    expect(result.structured.droppedComments).toEqual([]);
    await t.accept();
    const after = t.read('pngtest.c');
    expect(after).toContain(
      '   if (!data->info_ptr) /* after IDAT */\n      location = what | after_IDAT;\n\n   else if (png_get_valid(png_ptr, data->info_ptr, PNG_INFO_PLTE) != 0)\n',
    );
    // Every comment of the file is still there.
    const comments = (text: string) => text.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [];
    expect(comments(after)).toEqual(comments(before));
  });

  it('a comment outside every metavariable the rewrite uses is still named, first', async () => {
    await using t = realWorkspace(loader, ['/usr/share/doc/libpng-dev/examples/pngtest.c']);
    const result = await t.edit({ pattern: 'if ($P == NULL) $S', rewrite: 'if (!$P) {}', path: 'pngtest.c' });
    expect(result.structured.droppedComments).toContainEqual({ file: 'pngtest.c', line: 673, text: '/* after IDAT */' });
    expect(result.text.split('\n')[1]).toMatch(/^Loses: \d+ comments? inside the replaced code/);
  });

  it('c (cgo gcc_libinit.c): a preprocessor line keeps its line break, and a comment never travels into a string', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/go/src/runtime/cgo/gcc_libinit.c']);
    const same = await t.edit({ pattern: '#include $A', rewrite: '#include $A', path: 'gcc_libinit.c' });
    expect(same.structured.editId).toBeUndefined();
    const quoted = await t.edit({ pattern: '#include $A', rewrite: '#include "$A"', path: 'gcc_libinit.c' });
    expect(quoted.structured.diff).toContain('+#include "<string.h>"\n+#include "<time.h>"\n');
    expect(quoted.structured.droppedComments).toEqual([{ file: 'gcc_libinit.c', line: 12, text: '// strerror' }]);
  });
});
