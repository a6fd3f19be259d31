/** Code inside a match that the pattern does not name (UTF-16 offsets, 0-based row). */
export interface UnnamedCode {
  readonly start: number;
  readonly end: number;
  readonly row: number;
  readonly text: string;
}
