import { type ContentPart, imagePart, type ToolResult } from '@agent-tools/core';
import { collapseCarriageReturns, plural, stripTerminalCodes } from '@agent-tools/core/internal';
import type { CellOutput, MimeBundle } from '../jupyter/kernel-session.js';
import type { KernelLanguage } from '../language.js';
import { htmlTableToMarkdown } from './html-table.js';
import { type PreparedImage, preparePng } from './png.js';
import { capMiddle } from './text.js';
import { shortenPythonTraceback } from './traceback.js';

/** How a cell ended. */
export type CellEnd = 'ok' | 'error' | 'aborted' | 'timeout' | 'cancelled' | 'died' | 'stuck';

/** Everything the answer to one eval call is made from. */
export interface CellReport {
  readonly language: KernelLanguage;
  /** The cell's transcript label (its description, cut when too long). */
  readonly label?: string;
  readonly outputs: readonly CellOutput[];
  readonly executionCount: number | null;
  readonly ended: CellEnd;
  /** Sentences before the outputs (a reset, a fresh kernel after a death). */
  readonly before: readonly string[];
  /** Sentences after the outputs (why the cell stopped, input() it could not get). */
  readonly after: readonly string[];
  readonly kernel: { readonly id: string; readonly where: 'local' | 'environment'; readonly started: boolean } | undefined;
  readonly bridgeCalls: number;
  readonly rewritten: readonly string[];
}

/** The structured part of an eval answer, for programs (tests, harness UIs). */
export interface EvalStructured {
  readonly language: KernelLanguage;
  /** The cell's transcript label: its description as given, cut after 10 words. */
  readonly label?: string;
  readonly status: CellEnd;
  readonly executionCount: number | null;
  readonly images: number;
  readonly bridgeCalls: number;
  readonly rewritten: readonly string[];
  readonly kernel?: CellReport['kernel'];
}

/** Output budgets: what one answer may hold at most. */
export const CAPS = Object.freeze({
  /** Characters of one stream block (stdout or stderr run). */
  stream: 8000,
  /** Characters of one value (an Out[] or display() text). */
  value: 8000,
  /** Characters of a traceback. */
  traceback: 6000,
  /** Characters of the whole answer's text. */
  total: 24_000,
  /** Images per answer. */
  images: 4,
  /** Longer side of an image, in pixels. */
  imageSide: 1024,
  /** Base64 characters of an image (about 1.1 MB of PNG); larger images are scaled down further. */
  imageBase64: 1_500_000,
});

type Block = { readonly text: string } | { readonly image: PreparedImage };

/** Renders a cell's outputs as the tool's answer: text in order, images as image parts, notes around them. */
export function renderCell(report: CellReport): ToolResult<EvalStructured> {
  const blocks: Block[] = [];
  let images = 0;
  let imagesDropped = 0;
  const addImage = (image: PreparedImage): string => {
    if (images >= CAPS.images) {
      imagesDropped++;
      return '(image not shown: too many images in one cell)';
    }
    images++;
    blocks.push({ image });
    const size = image.width ? ` ${image.width}×${image.height}` : '';
    const scaled = image.original ? `, scaled down from ${image.original.width}×${image.original.height}` : '';
    return `[image ${images}: ${image.mimeType}${size}${scaled}]`;
  };

  for (const output of mergeStreams(applyClears(report.outputs))) {
    switch (output.type) {
      case 'stream': {
        const text = capMiddle(collapseCarriageReturns(stripTerminalCodes(output.text)), CAPS.stream, output.cut).replace(/\n$/, '');
        blocks.push({ text: output.name === 'stderr' ? `[stderr]\n${text}` : text });
        break;
      }
      case 'display': {
        const shown = renderBundle(output.data, addImage);
        if (shown) blocks.push({ text: shown });
        break;
      }
      case 'result': {
        const shown = renderBundle(output.data, addImage) ?? '';
        const label = `Out[${output.executionCount ?? report.executionCount ?? ''}]:`;
        blocks.push({ text: shown.includes('\n') || shown.startsWith('|') ? `${label}\n${shown}` : `${label} ${shown}` });
        break;
      }
      case 'error': {
        const text =
          report.language === 'python'
            ? shortenPythonTraceback(output.traceback, report.executionCount)
            : stripTerminalCodes(output.traceback.join('\n'));
        const body = text.trim() ? text : `${output.ename}: ${output.evalue}`;
        blocks.push({ text: tailCap(body, CAPS.traceback) });
        break;
      }
      default:
        break;
    }
  }
  if (imagesDropped) blocks.push({ text: `(${plural(imagesDropped, 'more image')} not shown)` });

  const content: ContentPart[] = [];
  let pending: string[] = [...report.before];
  const flush = (): void => {
    const text = pending.join('\n').trim();
    if (text) content.push({ type: 'text', text });
    pending = [];
  };
  const hasOutput = blocks.length > 0;
  for (const block of blocks) {
    if ('text' in block) pending.push(block.text);
    else {
      flush();
      content.push(imagePart(block.image.mimeType, block.image.data));
    }
  }
  if (!hasOutput && report.ended === 'ok') pending.push('(no output)');
  pending.push(...report.after);
  flush();
  // A failed cell with nothing to show must still say so: an empty error result reads as nothing at all.
  if (content.length === 0) content.push({ type: 'text', text: `The cell ended (${report.ended}) without output or a message.` });

  const structured: EvalStructured = {
    language: report.language,
    ...(report.label ? { label: report.label } : {}),
    status: report.ended,
    executionCount: report.executionCount,
    images,
    bridgeCalls: report.bridgeCalls,
    rewritten: report.rewritten,
    ...(report.kernel ? { kernel: report.kernel } : {}),
  };
  return { content: capTotal(content), isError: report.ended !== 'ok', structured };
}

/**
 * One MIME bundle as text, preferring what reads best for a model: an image (returned as an image part), a
 * table from HTML, markdown, then plain text.
 */
export function renderBundle(data: MimeBundle, addImage: (image: PreparedImage) => string): string | undefined {
  const plain = typeof data['text/plain'] === 'string' ? stripTerminalCodes(data['text/plain']) : undefined;
  const png = data['image/png'];
  if (typeof png === 'string') {
    const label = addImage(preparePng(png.replace(/\s+/g, ''), CAPS.imageSide, CAPS.imageBase64));
    return plain ? `${label} ${capMiddle(plain, 200)}` : label;
  }
  const jpeg = data['image/jpeg'];
  if (typeof jpeg === 'string') return addImage({ mimeType: 'image/jpeg', data: jpeg.replace(/\s+/g, '') });
  const html = data['text/html'];
  if (typeof html === 'string' && /<table\b/i.test(html)) {
    const table = htmlTableToMarkdown(html);
    if (table) return table;
  }
  const markdown = data['text/markdown'];
  if (typeof markdown === 'string') return capMiddle(markdown, CAPS.value);
  if (plain !== undefined) return capMiddle(plain, CAPS.value);
  const json = data['application/json'];
  if (json !== undefined) return capMiddle(JSON.stringify(json, null, 2), CAPS.value);
  if (typeof html === 'string') return capMiddle(html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim(), CAPS.value);
  const types = Object.keys(data);
  return types.length ? `(output of type ${types.join(', ')} not shown)` : undefined;
}

/** Drops what came before each clear_output, as a notebook does (progress bars redraw this way). */
function applyClears(outputs: readonly CellOutput[]): CellOutput[] {
  const kept: CellOutput[] = [];
  for (const output of outputs) {
    if (output.type === 'clear') {
      for (let i = kept.length - 1; i >= 0; i--) {
        const type = kept[i]?.type;
        if (type === 'stream' || type === 'display') kept.splice(i, 1);
      }
    } else kept.push(output);
  }
  return kept;
}

function mergeStreams(outputs: readonly CellOutput[]): CellOutput[] {
  const merged: CellOutput[] = [];
  for (const output of outputs) {
    const last = merged[merged.length - 1];
    if (output.type === 'stream' && last?.type === 'stream' && last.name === output.name) {
      const cut = (last.cut ?? 0) + (output.cut ?? 0);
      merged[merged.length - 1] = { ...last, text: last.text + output.text, ...(cut ? { cut } : {}) };
    } else merged.push(output);
  }
  return merged;
}

function tailCap(text: string, max: number): string {
  if (text.length <= max) return text;
  const lines = text.split('\n');
  const first = lines[0] ?? '';
  return `${first}\n… (${text.length - max} characters of traceback cut) …\n${text.slice(text.length - max + first.length)}`;
}

/** Keeps the answer's text within the total budget, cutting the longest text parts first. */
function capTotal(content: ContentPart[]): ContentPart[] {
  const total = content.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
  if (total <= CAPS.total) return content;
  const ratio = CAPS.total / total;
  return content.map((part) => (part.type === 'text' ? { type: 'text', text: capMiddle(part.text, Math.floor(part.text.length * ratio)) } : part));
}
