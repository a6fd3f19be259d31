import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { pythonAst, realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

describe('a comment after the last token a pattern names is no unnamed code (issue 21, items 1 and 2)', () => {
  it('python (http/client.py): `return b"" # eof` is rewritten, the comment kept, and nothing is called unsafe', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/python3.11/http/client.py']);
    const result = await t.edit({ pattern: 'if $C:\n    return $X', rewrite: 'if $C:\n    return log($X)', path: 'client.py' });
    // Before: `# eof` travelled with `$X` AND stayed as the kept end (`return log(b'' # eof) # eof`), so that match
    // was "Not rewritten" for code after it that "would not parse"; and every match ending in a trailing comment (`return b'' # eof`) was listed as "Unsafe … ((whole))" and
    // counted as "code after what the pattern names", although the replacement re-parses as the template.
    expect(result.structured.unsafe).toEqual([]);
    expect(result.text).not.toMatch(/^(Unsafe|Not rewritten):/m);
    expect(result.structured.untouched).toEqual([]);
    await t.accept();
    const after = t.read('client.py');
    expect(after).toContain("        if chunk_left is None:\n            return log(b'') # eof\n");
    expect(after.match(/# eof/g)).toHaveLength(1);
    pythonAst(t.dir.join('client.py'));
  });
});
