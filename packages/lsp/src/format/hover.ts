import { capText } from '@agent-tools/core';
import type { Hover, MarkedString, MarkupContent } from 'vscode-languageserver-protocol';
import { fromUri } from '../util/paths.js';
import { pathLabel } from './outside-label.js';

/** A hover as programs receive it. */
export interface HoverData {
  /** The code blocks of the hover: signatures, types. */
  readonly signature: string;
  /** The prose: the doc comment. */
  readonly documentation: string;
}

const FENCE = /```[^\n]*\n([\s\S]*?)```/g;

/** Splits a hover into its signature (code blocks) and documentation (the rest), as plain text. */
export function hoverData(hover: Hover | null | undefined): HoverData | undefined {
  if (!hover?.contents) return undefined;
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  const code: string[] = [];
  const prose: string[] = [];
  for (const part of parts as Array<MarkedString | MarkupContent>) {
    if (typeof part === 'string') splitMarkdown(part, code, prose);
    else if ('language' in part) code.push(part.value.trim());
    else if (part.kind === 'markdown') splitMarkdown(part.value, code, prose);
    else prose.push(part.value.trim());
  }
  const signature = code.filter(Boolean).join('\n');
  const documentation = prose
    .map((p) => p.replace(/&nbsp;/g, ' ').replace(/\n{3,}/g, '\n\n').trim())
    .filter(Boolean)
    .join('\n\n');
  if (!signature && !documentation) return undefined;
  return { signature, documentation };
}

const FILE_LINK = /file:\/\/[^\s)\]"'>]+/g;

/**
 * A hover with the `file://` links servers put in doc comments (tsserver's `{@link}`) as paths a model reads:
 * workspace-relative, with `:line:column` for a `#L12,5` fragment.
 */
export function relativeLinks(data: HoverData, cwd: string): HoverData {
  const rewrite = (text: string): string =>
    text.replace(FILE_LINK, (link) => {
      const [address, fragment] = link.split('#') as [string, string | undefined];
      const path = fromUri(address);
      if (!path) return link;
      const at = /^L(\d+)(?:(?:%2C|,)(\d+))?$/i.exec(fragment ?? '');
      return `${pathLabel(path, cwd)}${at ? `:${at[1]}${at[2] ? `:${at[2]}` : ''}` : ''}`;
    });
  return { signature: rewrite(data.signature), documentation: rewrite(data.documentation) };
}

/** The hover as a model reads it, capped. */
export function renderHover(data: HoverData, max = 4000): string {
  return capText([data.signature, data.documentation].filter(Boolean).join('\n\n'), max);
}

function splitMarkdown(markdown: string, code: string[], prose: string[]): void {
  let rest = markdown;
  for (const match of markdown.matchAll(FENCE)) {
    code.push((match[1] ?? '').trim());
    rest = rest.replace(match[0], '\n');
  }
  // Separators between hover sections carry no meaning for a model.
  prose.push(rest.replace(/^\s*(?:---|\*\*\*|___)\s*$/gm, '').trim());
}
