/**
 * Cuts text longer than `max` out of its middle, keeping a quarter of the budget from the start and the rest from
 * the end (where errors and final results are), and says how much was cut. `alreadyCut` counts characters removed
 * from the middle earlier (see {@link OutputLog}); they are reported with the rest.
 */
export function capMiddle(text: string, max: number, alreadyCut = 0): string {
  if (text.length <= max && alreadyCut === 0) return text;
  const head = Math.min(Math.floor(max / 4), text.length);
  const tail = Math.min(max - head, text.length - head);
  const cut = text.length - head - tail + alreadyCut;
  return `${text.slice(0, head)}\n… (${cut} characters cut) …\n${text.slice(text.length - tail)}`;
}
