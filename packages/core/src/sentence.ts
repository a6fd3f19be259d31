/** Text as a whole sentence: trimmed, with a final full stop unless it already ends like a sentence. */
export function asSentence(text: string | undefined, fallback = 'no reason given'): string {
  const trimmed = (text ?? '').trim() || fallback;
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
