import { PNG } from 'pngjs';

/** An image ready for the model, and what was done to it. */
export interface PreparedImage {
  readonly mimeType: string;
  /** Base64. */
  readonly data: string;
  readonly width?: number;
  readonly height?: number;
  /** The original size, when the image was scaled down. */
  readonly original?: { readonly width: number; readonly height: number };
}

/**
 * Scales a PNG down (box filter) so its longer side is at most `maxSide` pixels, and further while its base64 is
 * longer than `maxBase64` (noise-like images barely compress): a 300-dpi figure would otherwise cost the model many
 * thousands of tokens for detail it cannot use, or exceed a model API's image size limit. Smaller images pass
 * through untouched; an image that does not decode passes through as it came.
 */
export function preparePng(base64: string, maxSide = 1024, maxBase64 = 1_500_000): PreparedImage {
  let png: PNG;
  try {
    png = PNG.sync.read(Buffer.from(base64, 'base64'));
  } catch {
    // pngjs raises only on data that is not a PNG it can read: the image is passed on as it came.
    return { mimeType: 'image/png', data: base64 };
  }
  const { width, height } = png;
  let side = Math.min(maxSide, Math.max(width, height));
  if (side >= Math.max(width, height) && base64.length <= maxBase64) {
    return { mimeType: 'image/png', data: base64, width, height };
  }
  for (;;) {
    const scaled = scale(png, side / Math.max(width, height));
    const data = PNG.sync.write(scaled).toString('base64');
    if (data.length <= maxBase64 || side <= 256) {
      return { mimeType: 'image/png', data, width: scaled.width, height: scaled.height, original: { width, height } };
    }
    side = Math.floor(side * 0.7);
  }
}

function scale(png: PNG, factor: number): PNG {
  const { width, height } = png;
  const w = Math.max(1, Math.round(width * Math.min(1, factor)));
  const h = Math.max(1, Math.round(height * Math.min(1, factor)));
  const out = new PNG({ width: w, height: h });
  const source = png.data;
  const target = out.data;
  const sx = width / w;
  const sy = height / h;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let yy = y0; yy < y1; yy++) {
        let i = (yy * width + x0) * 4;
        for (let xx = x0; xx < x1; xx++, i += 4) {
          r += source[i] as number;
          g += source[i + 1] as number;
          b += source[i + 2] as number;
          a += source[i + 3] as number;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * w + x) * 4;
      target[o] = Math.round(r / n);
      target[o + 1] = Math.round(g / n);
      target[o + 2] = Math.round(b / n);
      target[o + 3] = Math.round(a / n);
    }
  }
  return out;
}
