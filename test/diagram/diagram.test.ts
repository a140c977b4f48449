/**
 * Diagrams (lib/diagram/diagram.ts): the SVG parses as XML, and rendered by a real renderer (rsvg-convert,
 * Debian librsvg2-bin) its pixels show what was asked: highlight colours near each square's top-left
 * corner, board colours elsewhere, pieces at square centres exactly where the FEN puts them (read by
 * a FEN board reader written here), arrows, the last move, the check mark, the coordinate frame, and
 * the flipped board mirroring all of it. toText against boards written out literally below.
 * Positions come from both backends; the drawing must not depend on which made them.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MoveError } from '../../lib/core/position.js';
import { BOARD_COLORS, bitboardSvg, toSvg, toText, type Highlight, type SvgOptions } from '../../lib/diagram/diagram.js';
import { anySet } from '../support/arbitraries.js';
import { parsePgn } from '../../lib/games/pgn.js';
import { backends, jsApi } from '../support/backends.js';
import { decodePng, hasRsvg, near, picture, render, rgb, xmlProblem, type Image } from './diagram-helpers.js';

const LIGHT = rgb('#f0d9b5');
const DARK = rgb('#b58863');
const LAST_LIGHT = rgb('#e3e07a');
const LAST_DARK = rgb('#b9aa3c');
const FRAME = rgb('#3a3a3a');

const FILES = 'abcdefgh';
/** 'e4' -> 28 (a1 = 0, h8 = 63). */
const sq = (name: string): number => (Number(name[1]) - 1) * 8 + FILES.indexOf(name[0]!);
const set = (...names: string[]): bigint => names.reduce((b, n) => b | (1n << BigInt(sq(n))), 0n);
/** Light squares: file + rank odd (a1 is dark, h1 light). */
const isLight = (s: number): boolean => ((s & 7) + (s >> 3)) % 2 === 1;

/** The board field of a FEN read square by square: square -> piece letter. */
function fenBoard(fen: string): Map<number, string> {
  const out = new Map<number, string>();
  fen.split(' ')[0]!.split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else out.set((7 - i) * 8 + file++, ch);
    }
  });
  return out;
}

// Not in check; both sides have pieces everywhere on the board.
const ITALIAN = 'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4';
// Black checkmated (Scholar's mate): the king on e8 is in check.
const MATED = 'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4';
const PIN = '4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1';

/** Pixel geometry of a rendered board: top-left of a square's box in the PNG. */
function squareOrigin(s: number, size: number, flipped: boolean, margin: number): [number, number] {
  const w = size / 8;
  const col = flipped ? 7 - (s & 7) : s & 7;
  const row = flipped ? s >> 3 : 7 - (s >> 3);
  return [margin + col * w, margin + row * w];
}
/** The pixel 5% in from a square's top-left corner, and the pixel at its centre. */
function corner(img: Image, s: number, size: number, flipped = false, margin = 0) {
  const [x, y] = squareOrigin(s, size, flipped, margin);
  return img.pixel(Math.floor(x + 0.05 * size / 8), Math.floor(y + 0.05 * size / 8));
}
function centre(img: Image, s: number, size: number, flipped = false, margin = 0) {
  const [x, y] = squareOrigin(s, size, flipped, margin);
  return img.pixel(Math.floor(x + size / 16), Math.floor(y + size / 16));
}

/** The colour each square's corner must show: the last highlight holding it, else the board colour. */
function expectedCorner(s: number, highlights: readonly Highlight[]): [number, number, number] {
  let c = isLight(s) ? LIGHT : DARK;
  for (const h of highlights) if ((h.squares >> BigInt(s)) & 1n) c = rgb(h.color);
  return c;
}

const svgRoot = (svg: string): Record<string, string> =>
  Object.fromEntries([.../^<svg([^>]*)>/.exec(svg)![1]!.matchAll(/([\w:]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));

describe('the XML checker of the tests (it must be able to fail)', () => {
  it('accepts well-formed documents and rejects malformed ones', () => {
    expect(xmlProblem('<svg a="1"><g><rect/></g>&amp;</svg>')).toBeNull();
    expect(xmlProblem('<svg><g></svg>')).not.toBeNull();
    expect(xmlProblem('<svg a="1" a="2"/>')).not.toBeNull();
    expect(xmlProblem('<svg a="x<y"/>')).not.toBeNull();
    expect(xmlProblem('<svg>a & b</svg>')).not.toBeNull();
    expect(xmlProblem('<svg/><svg/>')).not.toBeNull();
    expect(xmlProblem('<svg a=1/>')).not.toBeNull();
  });
  it('the PNG decoder rejects what it does not read', () => {
    expect(() => decodePng(Buffer.from('not a png at all'))).toThrow(/not a PNG/);
  });
});

describe.each(backends)('diagrams, positions from the %s backend', (_name, api) => {
  const italian = api.parseFen(ITALIAN);
  const highlights: Highlight[] = [
    { squares: set('e4', 'e5', 'a1', 'h8', 'c6', 'd3'), color: '#ff0000' },
    { squares: set('e5', 'd1', 'h1', 'd3'), color: '#00c000' },
  ];

  it('the SVG is the same whichever backend made the Position', () => {
    const opts: SvgOptions = { highlight: highlights, arrows: [{ from: sq('d1'), to: sq('h5'), color: '#00f' }], lastMove: 'f1c4' };
    expect(toSvg(italian, opts)).toBe(toSvg(jsApi.parseFen(ITALIAN), opts));
    expect(toSvg(api.parseFen(MATED))).toBe(toSvg(jsApi.parseFen(MATED)));
  });

  it('parses as XML for every combination of options', () => {
    const positions = [null, italian, api.parseFen(MATED), api.parseFen(PIN)];
    for (const pos of positions) {
      for (const flipped of [false, true]) {
        for (const coordinates of [false, true]) {
          const svg = toSvg(pos, { highlight: highlights, flipped, coordinates, size: 333, lastMove: 'e7e8q',
            arrows: [{ from: 0, to: 63, color: 'rgba(0, 0, 255, 0.5)' }, { from: 5, to: 5, color: 'red' }] });
          expect(xmlProblem(svg)).toBeNull();
          expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
        }
      }
    }
    expect(xmlProblem(bitboardSvg(0xffff_0000_0000_ffffn, { coordinates: false }))).toBeNull();
  });

  it('geometry: viewBox 0 0 size size without coordinates; a frame of s/2 around the board with them', () => {
    expect(svgRoot(toSvg(italian, { coordinates: false }))).toMatchObject({ width: '400', height: '400', viewBox: '0 0 400 400' });
    expect(svgRoot(toSvg(italian, { coordinates: false, size: 100 }))).toMatchObject({ width: '100', height: '100', viewBox: '0 0 100 100' });
    expect(svgRoot(toSvg(italian))).toMatchObject({ width: '450', height: '450', viewBox: '-25 -25 450 450' });
    // Square rectangles in user units: a1 at x 0, y 350 (s = 50); flipped: at x 350, y 0.
    expect(toSvg(null, { coordinates: false, highlight: [{ squares: set('a1'), color: '#123456' }] }))
      .toContain('<rect x="0" y="350" width="50" height="50" fill="#123456"/>');
    expect(toSvg(null, { coordinates: false, flipped: true, highlight: [{ squares: set('a1'), color: '#123456' }] }))
      .toContain('<rect x="350" y="0" width="50" height="50" fill="#123456"/>');
  });

  it('geometry of every piece: the <use> of each piece sits at its square\'s place (unflipped and flipped), 60 sample positions', () => {
    const lines = readFileSync(new URL('../../examples/positions.epd', import.meta.url), 'utf8').trim().split('\n');
    for (let i = 0; i < lines.length; i += Math.floor(lines.length / 60)) {
      const fen = `${lines[i]!.split(' ').slice(0, 4).join(' ')} 0 1`;
      const pos = api.parseFen(fen);
      for (const flipped of [false, true]) {
        const drawn = new Map<number, string>();
        for (const m of toSvg(pos, { flipped, size: 400 }).matchAll(/<use href="#bbp-([wb])([pnbrqk])"[^>]*transform="translate\(([\d.]+) ([\d.]+)\) scale\(1\.111\)"/g)) {
          const col = Number(m[3]) / 50, row = Number(m[4]) / 50;
          const s = flipped ? row * 8 + (7 - col) : (7 - row) * 8 + col;
          expect(drawn.has(s)).toBe(false);
          drawn.set(s, m[1] === 'w' ? m[2]!.toUpperCase() : m[2]!);
        }
        expect([...drawn].sort((a, b) => a[0] - b[0])).toEqual([...fenBoard(fen)].sort((a, b) => a[0] - b[0]));
      }
    }
  });

  it('geometry of highlights (fast-check): one rectangle per square of the set, at the square\'s place', () => {
    fc.assert(fc.property(anySet, fc.boolean(), fc.constantFrom(80, 400, 1000), (bb, flipped, size) => {
      const s = size / 8;
      const got = [...toSvg(null, { flipped, size, coordinates: false, highlight: [{ squares: bb, color: '#010203' }] })
        .matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="#010203"\/>/g)]
        .map((m) => { expect([Number(m[3]), Number(m[4])]).toEqual([s, s]); return `${Number(m[1]) / s},${Number(m[2]) / s}`; });
      const want: string[] = [];
      for (let q = 0; q < 64; q++) {
        if ((bb >> BigInt(q)) & 1n) want.push(flipped ? `${7 - (q & 7)},${q >> 3}` : `${q & 7},${7 - (q >> 3)}`);
      }
      expect(got.sort()).toEqual(want.sort());
    }), { numRuns: 200 });
  });

  it('draws a PGN node\'s arrows and squares: lichess\'s letters G R Y B as its board\'s brush colours', () => {
    const [g] = parsePgn('1. e4 {[%cal Ge2e4,Rd8d1,Yb1c3,Bg8f6] [%csl Gd4,Rh8]} *', { variations: true });
    const node = g!.tree!.children[0]!;
    const svg = toSvg(italian, { arrows: node.arrows, squares: node.squares, coordinates: false, size: 400 });
    // chessground's default brushes (green #15781B, red #882020, yellow #e68f00, blue #003088), 80% opaque.
    const css = { G: '#15781bcc', R: '#882020cc', Y: '#e68f00cc', B: '#003088cc' } as const;
    expect(svg).toBe(toSvg(italian, { coordinates: false, size: 400,
      squares: node.squares.map((q) => ({ square: q.square, color: css[q.color] })),
      arrows: node.arrows.map((a) => ({ ...a, color: css[a.color] })) }));
    // d4's ring: centre (3.5, 4.5) squares from the top left, 50 px a square.
    expect(svg).toContain('<circle cx="175" cy="225"');
    expect(() => toSvg(italian, { squares: [{ square: 64, color: 'G' }] })).toThrow(RangeError);
    expect(() => toSvg(italian, { squares: [{ square: 3, color: 'Q' }] })).toThrow(RangeError);
  });

  it('bad options: clear exceptions', () => {
    expect(() => toSvg({ colors: italian.colors, pieces: italian.pieces } as never)).toThrow(TypeError);
    expect(() => toSvg('fen' as never)).toThrow(TypeError);
    expect(() => toSvg(italian, 'big' as never)).toThrow(TypeError);
    expect(() => toSvg(italian, { size: 0 })).toThrow(RangeError);
    expect(() => toSvg(italian, { size: Number.NaN })).toThrow(RangeError);
    expect(() => toSvg(italian, { size: '400' as never })).toThrow(TypeError);
    expect(() => toSvg(italian, { flipped: 1 as never })).toThrow(TypeError);
    expect(() => toSvg(italian, { highlight: [{ squares: 5 as never, color: 'red' }] })).toThrow(TypeError);
    expect(() => toSvg(italian, { highlight: [{ squares: -1n, color: 'red' }] })).toThrow(RangeError);
    expect(() => toSvg(italian, { highlight: [{ squares: 1n, color: '"/><script>alert(1)</script>' }] })).toThrow(RangeError);
    expect(() => toSvg(italian, { highlight: {} as never })).toThrow(TypeError);
    expect(() => toSvg(italian, { arrows: [{ from: 0, to: 64, color: 'red' }] })).toThrow(RangeError);
    expect(() => toSvg(italian, { arrows: [{ from: 0.5, to: 6, color: 'red' }] })).toThrow(RangeError);
    expect(() => toSvg(italian, { lastMove: 'e2e9' })).toThrow(MoveError);
    expect(() => toSvg(italian, { lastMove: 42 as never })).toThrow(TypeError);
    expect(() => bitboardSvg(1 as never)).toThrow(TypeError);
    expect(() => bitboardSvg(1n << 64n)).toThrow(RangeError);
    expect(() => bitboardSvg(1n, { color: 'url(#x)' })).toThrow(RangeError);
    expect(() => toText(italian, { color: true, highlight: [{ squares: 1n, color: 'chartreuse' }] })).toThrow(RangeError);
    expect(() => toText(italian, { highlight: [{ squares: 1n, color: 'red', label: 7 as never }] })).toThrow(TypeError);
    expect(() => toText(null, { unicode: 'yes' as never })).toThrow(TypeError);
  });

  describe.skipIf(!hasRsvg)('rendered by rsvg-convert', () => {
    const bareBoardChecks = (img: Image, pos: typeof italian | null, fen: string | null, hl: readonly Highlight[],
      flipped: boolean, size: number, margin: number, bare: Image) => {
      const pieces = fen ? fenBoard(fen) : new Map<number, string>();
      for (let s = 0; s < 64; s++) {
        const want = expectedCorner(s, hl);
        const got = corner(img, s, size, flipped, margin);
        if (!near(got, want)) expect.fail(`${FILES[s & 7]}${(s >> 3) + 1} corner ${got} should be ${want} (flipped ${flipped})`);
        const c = centre(img, s, size, flipped, margin), b = centre(bare, s, size, flipped, margin);
        if (pieces.has(s) && near(c, b, 10)) expect.fail(`${FILES[s & 7]}${(s >> 3) + 1} holds ${pieces.get(s)} but its centre looks bare`);
        if (!pieces.has(s) && !near(c, b, 0)) expect.fail(`${FILES[s & 7]}${(s >> 3) + 1} is empty but its centre ${c} differs from the bare board ${b}`);
      }
      expect(pos === null || pieces.size > 0).toBe(true);
    };

    it('highlights at every highlighted corner, board colours elsewhere, pieces exactly on the FEN squares; flipped too', () => {
      for (const flipped of [false, true]) {
        const opts = { highlight: highlights, coordinates: false, flipped };
        const img = render(toSvg(italian, opts));
        expect([img.width, img.height]).toEqual([400, 400]);
        bareBoardChecks(img, italian, ITALIAN, highlights, flipped, 400, 0, render(toSvg(null, opts)));
      }
    });

    it('flipped mirrors all of it: every square shows the same pixels, moved to the mirrored place', () => {
      const opts = { highlight: highlights, coordinates: false, lastMove: 'g1f3' };
      const a = render(toSvg(italian, opts));
      const b = render(toSvg(italian, { ...opts, flipped: true }));
      for (let s = 0; s < 64; s++) {
        const [ax, ay] = squareOrigin(s, 400, false, 0);
        const [bx, by] = squareOrigin(s, 400, true, 0);
        for (let y = 0; y < 50; y++) {
          for (let x = 0; x < 50; x++) {
            const p = a.pixel(ax + x, ay + y), q = b.pixel(bx + x, by + y);
            if (!near(p, q, 0)) expect.fail(`square ${s} pixel ${x},${y}: ${p} unflipped, ${q} flipped`);
          }
        }
      }
    });

    it('other sizes and the coordinate frame keep the geometry (frame of s/2 in the frame colour)', () => {
      const img = render(toSvg(italian, { highlight: highlights, size: 240, coordinates: false }));
      expect([img.width, img.height]).toEqual([240, 240]);
      bareBoardChecks(img, italian, ITALIAN, highlights, false, 240, 0, render(toSvg(null, { highlight: highlights, size: 240, coordinates: false })));
      for (const flipped of [false, true]) {
        const framed = render(toSvg(italian, { highlight: highlights, flipped }));
        expect([framed.width, framed.height]).toEqual([450, 450]);
        bareBoardChecks(framed, italian, ITALIAN, highlights, flipped, 400, 25, render(toSvg(null, { highlight: highlights, flipped })));
        for (const [x, y] of [[2, 2], [447, 447], [2, 447], [447, 2], [12, 225], [437, 225], [225, 12], [225, 437]]) expect(near(framed.pixel(x!, y!), FRAME)).toBe(true);
      }
    });

    it('the last move tints its two squares (light and dark tints), flipped too', () => {
      for (const flipped of [false, true]) {
        const img = render(toSvg(italian, { coordinates: false, lastMove: 'g1f3', flipped }));
        expect(near(corner(img, sq('g1'), 400, flipped), LAST_DARK)).toBe(true); // g1 is dark
        expect(near(corner(img, sq('f3'), 400, flipped), LAST_LIGHT)).toBe(true); // f3 is light
        expect(near(corner(img, sq('e2'), 400, flipped), LIGHT)).toBe(true);
        expect(near(corner(img, sq('f1'), 400, flipped), LIGHT)).toBe(true);
      }
    });

    it('a king in check glows red over its square unless check: false; no glow when not in check', () => {
      const mated = api.parseFen(MATED);
      for (const flipped of [false, true]) {
        const marked = render(toSvg(mated, { coordinates: false, flipped }));
        const plain = render(toSvg(mated, { coordinates: false, flipped, check: false }));
        const [r, g, b] = corner(marked, sq('e8'), 400, flipped);
        expect(r - g).toBeGreaterThan(60);
        expect(r - b).toBeGreaterThan(60);
        expect(near(corner(plain, sq('e8'), 400, flipped), LIGHT)).toBe(true);
        // The other squares are untouched by the mark.
        for (let s = 0; s < 64; s++) {
          if (s !== sq('e8')) expect(near(corner(marked, s, 400, flipped), corner(plain, s, 400, flipped), 0)).toBe(true);
        }
      }
      const white = render(toSvg(italian, { coordinates: false }));
      expect(near(corner(white, sq('e1'), 400), DARK)).toBe(true); // e1 is dark
      expect(near(corner(white, sq('e8'), 400), LIGHT)).toBe(true);
    });

    it('arrows run from centre to centre on top of everything; a ring when from === to', () => {
      for (const flipped of [false, true]) {
        const img = render(toSvg(api.parseFen(PIN), { coordinates: false, flipped, arrows: [
          { from: sq('a1'), to: sq('h8'), color: '#0000ff' }, { from: sq('e4'), to: sq('e4'), color: '#00ff00' }] }));
        const blue = rgb('#0000ff');
        for (const name of ['b2', 'c3', 'd4', 'f6', 'g7']) expect(near(centre(img, sq(name), 400, flipped), blue)).toBe(true);
        // Inside the head, a quarter square before the tip at h8's centre.
        const [hx, hy] = squareOrigin(sq('h8'), 400, flipped, 0);
        const dir = flipped ? -1 : 1;
        expect(near(img.pixel(Math.floor(hx + 25 - dir * 9), Math.floor(hy + 25 + dir * 9)), blue)).toBe(true);
        // Off the line: untouched.
        expect(near(centre(img, sq('a8'), 400, flipped), LIGHT)).toBe(true);
        expect(near(centre(img, sq('d5'), 400, flipped), LIGHT)).toBe(true);
        // The ring around e4 (on the rook): 0.42 s from the centre, to the right of it on screen.
        const [ex, ey] = squareOrigin(sq('e4'), 400, flipped, 0);
        expect(near(img.pixel(ex + 25 + 21, ey + 25), rgb('#00ff00'))).toBe(true);
      }
    });

    it('bitboardSvg: the set in its colour, every other square a board colour, no pieces', () => {
      const bb = set('b3', 'c2', 'h8', 'a1');
      for (const flipped of [false, true]) {
        const img = render(bitboardSvg(bb, { coordinates: false, flipped }));
        const dflt = [{ squares: bb, color: '#5b9bd5' }];
        bareBoardChecks(img, null, null, dflt, flipped, 400, 0, img);
        const own = render(bitboardSvg(bb, { coordinates: false, flipped, color: '#a0a0ff', highlight: [{ squares: set('c2', 'd4'), color: '#101010' }] }));
        bareBoardChecks(own, null, null, [{ squares: bb, color: '#a0a0ff' }, { squares: set('c2', 'd4'), color: '#101010' }], flipped, 400, 0, own);
      }
    });
  });
});

// CI sets BITBOARD_PATTERNS_REQUIRE_RSVG=1 so that a missing renderer fails instead of skipping.
describe.runIf(!hasRsvg && process.env.BITBOARD_PATTERNS_REQUIRE_RSVG === '1')('renderer required', () => {
  it('rsvg-convert is installed (BITBOARD_PATTERNS_REQUIRE_RSVG=1)', () => {
    expect.fail('rsvg-convert not found: apt-get install -y librsvg2-bin');
  });
});

if (!hasRsvg) {
  console.warn('diagram.test.ts: rsvg-convert not found, the rendering tests are SKIPPED '
    + '(install it: apt-get install -y librsvg2-bin)');
}

describe('BOARD_COLORS are the colours these tests expect', () => {
  it('light and dark', () => {
    expect(rgb(BOARD_COLORS.light)).toEqual(LIGHT);
    expect(rgb(BOARD_COLORS.dark)).toEqual(DARK);
  });
});

describe.each(backends)('toText, positions from the %s backend', (_name, api) => {
  const pin = api.parseFen(PIN);
  const hl: Highlight[] = [
    { squares: set('e2'), color: 'red', label: 'pinned' },
    { squares: set('e4', 'e3'), color: '#6fa8dc', label: 'ray' },
  ];

  it('without colour: brackets per highlight, legend', () => {
    expect(toText(pin, { color: false, highlight: hl })).toBe(picture(`
      |8  .  .  .  .  k  .  .  .
      |7  .  .  .  .  .  .  .  .
      |6  .  .  .  .  .  .  .  .
      |5  .  .  .  .  .  .  .  .
      |4  .  .  .  . (r) .  .  .
      |3  .  .  .  . (.) .  .  .
      |2  .  .  .  . [N] .  .  .
      |1  .  .  .  .  K  .  .  .
      |   a  b  c  d  e  f  g  h
      |
      |[ ] pinned
      |( ) ray
    `));
  });

  it('with colour: ANSI backgrounds (named and 24-bit), black text, reset after each square', () => {
    const red = (t: string) => `\x1b[30;41m${t}\x1b[0m`;
    const blue = (t: string) => `\x1b[30;48;2;111;168;220m${t}\x1b[0m`;
    expect(toText(pin, { color: true, highlight: hl })).toBe(picture(`
      |8  .  .  .  .  k  .  .  .
      |7  .  .  .  .  .  .  .  .
      |6  .  .  .  .  .  .  .  .
      |5  .  .  .  .  .  .  .  .
      |4  .  .  .  . ${blue(' r ')} .  .  .
      |3  .  .  .  . ${blue(' . ')} .  .  .
      |2  .  .  .  . ${red(' N ')} .  .  .
      |1  .  .  .  .  K  .  .  .
      |   a  b  c  d  e  f  g  h
      |
      |${red('   ')} pinned
      |${blue('   ')} ray
    `));
  });

  it('the starting position, flipped, Unicode, no coordinates; later highlights win', () => {
    const start = api.parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(toText(start, { color: false, flipped: true, unicode: true, coordinates: false,
      highlight: [{ squares: set('d1', 'e1'), color: 'red' }, { squares: set('e1', 'h8'), color: 'blue' }] })).toBe(picture(`
      | ♖  ♘  ♗ (♔)[♕] ♗  ♘  ♖
      | ♙  ♙  ♙  ♙  ♙  ♙  ♙  ♙
      | .  .  .  .  .  .  .  .
      | .  .  .  .  .  .  .  .
      | .  .  .  .  .  .  .  .
      | .  .  .  .  .  .  .  .
      | ♟  ♟  ♟  ♟  ♟  ♟  ♟  ♟
      |(♜) ♞  ♝  ♚  ♛  ♝  ♞  ♜
    `));
  });

  it('an empty board (null) with ASCII coordinates', () => {
    expect(toText(null, { color: false, highlight: [{ squares: set('a1', 'h8'), color: 'green' }] })).toBe(picture(`
      |8  .  .  .  .  .  .  . [.]
      |7  .  .  .  .  .  .  .  .
      |6  .  .  .  .  .  .  .  .
      |5  .  .  .  .  .  .  .  .
      |4  .  .  .  .  .  .  .  .
      |3  .  .  .  .  .  .  .  .
      |2  .  .  .  .  .  .  .  .
      |1 [.] .  .  .  .  .  .  .
      |   a  b  c  d  e  f  g  h
    `));
  });
});
