/**
 * Characters a Python cell cannot carry, found before anything is sent: CPython refuses source holding a NUL,
 * and an unpaired UTF-16 surrogate has no UTF-8 form. Sent anyway, either one makes ipykernel drop the request
 * without an answer, so the cell would hang until its budget ran out and the kernel, with all its state, would
 * be given up. A JavaScript cell carries both faithfully and is not checked.
 */
export function unsendablePython(code: string): string | undefined {
  const match = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(code);
  if (!match) return undefined;
  const before = code.slice(0, match.index);
  const line = before.split('\n').length;
  const column = match.index - before.lastIndexOf('\n');
  const unit = (match[0].charCodeAt(0)).toString(16).toUpperCase().padStart(4, '0');
  const where = `at line ${line}, column ${column}`;
  if (match[0] === '\u0000') {
    return `The cell holds a NUL character (U+0000) ${where}: Python source cannot contain one. Inside a string write it as "\\x00" (or chr(0)).`;
  }
  return `The cell holds an unpaired surrogate (U+${unit}) ${where}: it has no UTF-8 form, so Python cannot read it. Inside a string write it as "\\u${unit.toLowerCase()}".`;
}
