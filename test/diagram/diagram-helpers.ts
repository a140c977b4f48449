/**
 * Test helpers for the diagram tests: an XML well-formedness checker (XML 1.0, the subset an SVG
 * renderer needs: elements, attributes, text, comments, the five predefined entities and numeric
 * character references), a PNG decoder (PNG specification, ISO/IEC 15948: 8-bit RGB / RGBA,
 * non-interlaced, the five scanline filters), a renderer call (rsvg-convert from librsvg) and the
 * expected text diagrams written as pictures (`picture`).
 */
import { spawnSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';

/**
 * An expected text diagram written as a picture in a template literal, one line of it per source line
 * that holds a `|`: the line is what follows the first `|` (the indentation before it is the
 * source's, so leading spaces of the diagram stay); the first and the last source line (the line
 * breaks after the opening and before the closing backtick) hold none and are dropped. Joined with '\n'.
 */
export function picture(text: string): string {
  return text.split('\n').filter((line) => line.includes('|')).map((line) => line.slice(line.indexOf('|') + 1)).join('\n');
}

const NAME = '[A-Za-z_:][A-Za-z0-9_:.-]*';
const REFERENCE = /&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;

/** null when `xml` is a well-formed document with one root element, else what is wrong. */
export function xmlProblem(xml: string): string | null {
  const stack: string[] = [];
  let roots = 0;
  let i = 0;
  const textOk = (t: string): boolean => !/[<&]/.test(t.replace(REFERENCE, ''));
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`);
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (!textOk(text)) return `bad character data at ${i}: ${JSON.stringify(text.slice(0, 30))}`;
    if (text.trim() && stack.length === 0) return `text outside the root element at ${i}`;
    if (lt < 0) break;
    const rest = xml.slice(lt, lt + 100_000);
    if (rest.startsWith('<?xml')) {
      if (lt !== 0) return 'XML declaration not at the start';
      const end = xml.indexOf('?>', lt);
      if (end < 0) return 'unterminated XML declaration';
      i = end + 2;
      continue;
    }
    if (rest.startsWith('<!--')) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) return `unterminated comment at ${lt}`;
      i = end + 3;
      continue;
    }
    const m = tag.exec(rest);
    if (!m) return `malformed tag at ${lt}: ${JSON.stringify(rest.slice(0, 40))}`;
    const [whole, closing, name, attrs, selfClosing] = m;
    if (closing) {
      if (attrs || selfClosing) return `malformed end tag </${name}> at ${lt}`;
      const open = stack.pop();
      if (open !== name) return `</${name}> at ${lt} closes <${open ?? '(nothing)'}>`;
    } else {
      if (stack.length === 0 && ++roots > 1) return `a second root element <${name}> at ${lt}`;
      const seen = new Set<string>();
      for (const a of attrs!.matchAll(new RegExp(`(${NAME})\\s*=\\s*("[^"]*"|'[^']*')`, 'g'))) {
        if (seen.has(a[1]!)) return `attribute ${a[1]} twice on <${name}> at ${lt}`;
        seen.add(a[1]!);
        if (!textOk(a[2]!.slice(1, -1))) return `bad attribute value ${a[1]}=${a[2]} at ${lt}`;
      }
      if (!selfClosing) stack.push(name!);
    }
    i = lt + whole!.length;
  }
  if (stack.length) return `unclosed <${stack.join('> <')}>`;
  if (roots !== 1) return 'no root element';
  return null;
}

export interface Image {
  readonly width: number;
  readonly height: number;
  /** [r, g, b, a] of the pixel at column x, row y. */
  pixel(x: number, y: number): [number, number, number, number];
}

/** Decodes an 8-bit RGB or RGBA non-interlaced PNG; throws for anything else. */
export function decodePng(png: Buffer): Image {
  if (!png.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))) throw new Error('not a PNG');
  let width = 0, height = 0, channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colorType, , , interlace] = data.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`);
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels]! : 0;
      const b = prev[x]!;
      const c = x >= channels ? prev[x - channels]! : 0;
      let predictor: number;
      switch (filter) {
        case 0: predictor = 0; break;
        case 1: predictor = a; break;
        case 2: predictor = b; break;
        case 3: predictor = (a + b) >> 1; break;
        case 4: {
          const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error(`bad PNG filter ${filter} on row ${y}`);
      }
      out[x] = (line[x]! + predictor) & 0xff;
    }
  }
  return {
    width,
    height,
    pixel(x, y) {
      if (x < 0 || y < 0 || x >= width || y >= height) throw new RangeError(`pixel ${x},${y} outside ${width}x${height}`);
      const at = y * stride + x * channels;
      return [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!, channels === 4 ? pixels[at + 3]! : 255];
    },
  };
}

/** Whether rsvg-convert (Debian: librsvg2-bin) can be run here. */
export const hasRsvg = spawnSync('rsvg-convert', ['--version']).status === 0;

/** SVG text -> decoded PNG, rendered by rsvg-convert at the SVG's own size. */
export function render(svg: string): Image {
  const r = spawnSync('rsvg-convert', ['--format', 'png'], { input: svg, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`rsvg-convert failed (${r.status}): ${r.stderr.toString()}`);
  return decodePng(r.stdout);
}

/** '#rrggbb' -> [r, g, b]. */
export function rgb(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not #rrggbb: ${hex}`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

/** Colours equal within `tolerance` per channel (anti-aliasing and rounding). */
export function near(p: readonly number[], q: readonly number[], tolerance = 3): boolean {
  return [0, 1, 2].every((i) => Math.abs(p[i]! - q[i]!) <= tolerance);
}
