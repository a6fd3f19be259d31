import type { ToolResult } from '@agent-tools/core';
import { plural } from '@agent-tools/core/internal';
import type { Tool } from 'ai';

/** What the AI SDK sends to the model for a tool result (its `ToolResultOutput`). */
export type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * How the installed `ai` major spells an image inside a tool result: `media` (ai 5), `image-data` (ai 6), or a
 * `file` part with tagged data (ai 7, which warns that `image-data` is deprecated).
 */
export type ImageSpelling = 'media' | 'image-data' | 'file';

/**
 * A registry result as the model should read it: the text alone when there is nothing else, text and images as
 * content parts (images as image parts, never as base64 text), and an error result as an error, so the provider
 * marks it as one (`is_error` for Anthropic).
 */
export function modelOutput(result: ToolResult, images: ImageSpelling): ModelOutput {
  const text = result.content.filter((part) => part.type === 'text').map((part) => part.text);
  const imageCount = result.content.length - text.length;
  if (result.isError) {
    // Error outputs carry text only; an image beside an error is named rather than lost silently.
    const note = imageCount > 0 ? [`(${plural(imageCount, 'image')} left out of this error)`] : [];
    return { type: 'error-text', value: [...text, ...note].join('\n') };
  }
  if (imageCount === 0) return { type: 'text', value: text.join('\n') };
  return {
    type: 'content',
    value: result.content.map((part) => {
      if (part.type === 'text') return { type: 'text' as const, text: part.text };
      if (images === 'file') {
        // ai 7's spelling; the types this package is built against (ai 6) do not know it yet.
        return { type: 'file', data: { type: 'data', data: part.data }, mediaType: part.mimeType } as unknown as ContentValue;
      }
      return { type: images, data: part.data, mediaType: part.mimeType };
    }),
  };
}

type ContentValue = Extract<ModelOutput, { type: 'content' }>['value'][number];
