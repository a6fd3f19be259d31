/** A text part of a tool result. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** An image part of a tool result, base64-encoded. */
export interface ImagePart {
  readonly type: 'image';
  readonly mimeType: string;
  readonly data: string;
}

/** One part of what a tool returns to the model. */
export type ContentPart = TextPart | ImagePart;

/**
 * What a tool call produces: content for the model, an error flag, and optional `structured` JSON data for
 * programs (tests, harness UIs) that should not parse the text.
 */
export interface ToolResult<S = unknown> {
  readonly content: readonly ContentPart[];
  readonly isError: boolean;
  readonly structured?: S;
}

/** A successful result with one text part. */
export function textResult<S = unknown>(text: string, structured?: S): ToolResult<S> {
  return structured === undefined
    ? { content: [{ type: 'text', text }], isError: false }
    : { content: [{ type: 'text', text }], isError: false, structured };
}

/**
 * An error result the model can act on. The text should say what went wrong and what to call next.
 */
export function errorResult<S = unknown>(text: string, structured?: S): ToolResult<S> {
  return structured === undefined
    ? { content: [{ type: 'text', text }], isError: true }
    : { content: [{ type: 'text', text }], isError: true, structured };
}

/** An image content part. */
export function imagePart(mimeType: string, data: string): ImagePart {
  return { type: 'image', mimeType, data };
}

/** The text parts of a result joined by newlines: what a text-only consumer reads. */
export function resultText(result: ToolResult): string {
  return result.content
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** A copy of the result with text appended as a further text part (kept separate so images stay in place). */
export function appendText<S>(result: ToolResult<S>, text: string): ToolResult<S> {
  if (!text) return result;
  return { ...result, content: [...result.content, { type: 'text', text }] };
}
