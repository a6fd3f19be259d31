import { capText } from '@agent-tools/core/internal';
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

/**
 * Splits a hover into its signature (the code blocks it opens with) and documentation (everything after, in the
 * server's order: a code example inside a docstring stays where it is), as plain text: HTML entities and markdown
 * escapes that servers leave in (`&lt;`, `allow\_fragments`) are undone outside code.
 */
export function hoverData(hover: Hover | null | undefined): HoverData | undefined {
  if (!hover?.contents) return undefined;
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  const code: string[] = [];
  const prose: string[] = [];
  for (const part of parts as Array<MarkedString | MarkupContent>) {
    // Once prose has begun, code belongs to the documentation.
    const atTop = prose.every((p) => p.trim() === '');
    if (typeof part === 'string') splitMarkdown(part, code, prose);
    else if ('language' in part) (atTop ? code : prose).push(part.value.trim());
    else if (part.kind === 'markdown') splitMarkdown(part.value, code, prose);
    else prose.push(part.value.trim());
  }
  const signature = code.filter(Boolean).join('\n');
  const documentation = prose
    .map((p) => p.replace(/\n{3,}/g, '\n\n').trim())
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

/** Lines of documentation shown before the rest is counted (a module's docstring can run to hundreds). */
const MAX_DOC_LINES = 60;

/** The hover as a model reads it, capped: a long documentation keeps its first lines and says how many more. */
export function renderHover(data: HoverData, max = 4000): string {
  const lines = data.documentation.split('\n');
  const documentation =
    lines.length > MAX_DOC_LINES ? `${lines.slice(0, MAX_DOC_LINES).join('\n')}\n… (${lines.length - MAX_DOC_LINES} more lines)` : data.documentation;
  return capText([data.signature, documentation].filter(Boolean).join('\n\n'), max);
}

/**
 * The code blocks a markdown hover opens with go to `code`; the rest, later code blocks included in place (without
 * their fences), to `prose`, unescaped.
 */
function splitMarkdown(markdown: string, code: string[], prose: string[]): void {
  let at = 0;
  const out: string[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    const before = markdown.slice(at, match.index);
    const body = (match[1] ?? '').replace(/\s+$/, '');
    // Separators between hover sections carry no meaning for a model.
    const text = unescapeMarkdown(before.replace(/^\s*(?:---|\*\*\*|___)\s*$/gm, ''));
    if (text.trim() === '' && out.every((p) => p.trim() === '') && prose.every((p) => p.trim() === '')) code.push(body.trim());
    else out.push(text, body);
    at = (match.index ?? 0) + match[0].length;
  }
  out.push(unescapeMarkdown(markdown.slice(at).replace(/^\s*(?:---|\*\*\*|___)\s*$/gm, '')));
  prose.push(out.join('\n').trim());
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Undoes what servers escape for markdown renderers: HTML entities, backslash escapes, trailing hard breaks. */
export function unescapeMarkdown(text: string): string {
  return text
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? _)
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/\\([\\`*_{}[\]()#+\-.!<>|~])/g, '$1')
    .replace(/ {2}$/gm, '');
}
