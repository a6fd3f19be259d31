/**
 * Repairs a bug some prebuilt grammars carry in their external scanner before web-tree-sitter loads them: a
 * `create` function that allocates the scanner's state with `calloc(0, size)`, zero bytes (tree-sitter-swift up to
 * 0.7.1; fixed upstream after it). Natively `malloc(0)` hands out a small block, so the state lives in slack
 * space; in wasm the state overlaps the next allocation, so what the scanner reads depends on what was parsed
 * before, and the same file parses with or without syntax errors by turns. The repair makes it `calloc(1, size)`.
 *
 * The function is recognised by its whole body (no locals, `i32.const 0`, `i32.const size`, a call to the
 * imported `calloc`, end), which nothing else compiles to; bytes without exactly one such body come back as
 * they were.
 */
export function allocateScannerState(bytes: Uint8Array): Uint8Array {
  try {
    const sites = zeroCallocBodies(bytes);
    if (sites.length !== 1) return bytes;
    const out = new Uint8Array(bytes);
    out[sites[0] as number] = 1;
    return out;
  } catch {
    // Not a module this reader understands: load it as it is.
    return bytes;
  }
}

const CALL = 0x10;
const I32_CONST = 0x41;
const END = 0x0b;

/** Offsets of the `0` operand of every `calloc(0, n)` function body in the code section. */
function zeroCallocBodies(bytes: Uint8Array): number[] {
  let at = 8; // magic and version
  const leb = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('truncated');
      result += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return result;
      shift += 7;
    }
  };
  const limits = (): void => {
    const flags = leb();
    leb();
    if (flags & 1) leb();
  };
  let calloc = -1;
  let importedFunctions = 0;
  const sites: number[] = [];
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 2) {
      for (let n = leb(); n > 0; n--) {
        const moduleLength = leb();
        const module = Buffer.from(bytes.subarray(at, at + moduleLength)).toString();
        at += moduleLength;
        const nameLength = leb();
        const name = Buffer.from(bytes.subarray(at, at + nameLength)).toString();
        at += nameLength;
        const kind = bytes[at++];
        if (kind === 0) {
          leb();
          if (module === 'env' && name === 'calloc') calloc = importedFunctions;
          importedFunctions++;
        } else if (kind === 1) {
          at++;
          limits();
        } else if (kind === 2) limits();
        else if (kind === 3) at += 2;
        else if (kind === 4) {
          at++;
          leb();
        } else throw new Error(`import kind ${kind}`);
      }
    } else if (id === 10 && calloc >= 0) {
      for (let n = leb(); n > 0; n--) {
        const length = leb();
        const body = at;
        at += length;
        // locals: none; i32.const 0; i32.const size; call calloc; end
        if (bytes[body] !== 0 || bytes[body + 1] !== I32_CONST || bytes[body + 2] !== 0 || bytes[body + 3] !== I32_CONST) continue;
        let p = body + 4;
        while ((bytes[p] as number) & 0x80) p++;
        if (bytes[++p] !== CALL) continue;
        const call = p + 1;
        at = call;
        const callee = leb();
        const done = at;
        at = body + length;
        if (callee === calloc && bytes[done] === END && done + 1 === body + length) sites.push(body + 2);
      }
    }
    at = end;
  }
  return sites;
}
