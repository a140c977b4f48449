/**
 * The `show` subcommand end to end (dist/cli.cjs, built by `npm run build`): the board, the state line
 * and the legend written out literally below (the highlighted squares worked out by hand from the
 * FEN), both backends byte-identical, colour on request, the SVG file (well-formed, and rendered:
 * the highlight colour on the highlighted square), flipping, and bad usage.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nativeApi } from '../support/backends.js';
import { hasRsvg, near, picture, render, rgb, xmlProblem } from './diagram-helpers.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'bbp-show-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

function show(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [cli, 'show', ...args], { env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '', NO_COLOR: '', ...env } });
  return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

// The white knight on e2 is pinned by the rook on e4 to the king on e1.
const PIN = '4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1';
// The rook on e4 checks the white king on e1.
const CHECK = '4k3/8/8/8/4r3/8/8/4K3 w - - 0 1';

describe('bitboard-patterns show', () => {
  const backendsToRun = nativeApi ? ['js', 'native'] : ['js'];

  it.each(backendsToRun)('a pin, no colour, backend %s: board, state line, legend with the squares', (backend) => {
    const r = show([PIN, '--highlight', 'pinned,checkers', '--backend', backend]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(picture(`
      |8  .  .  .  .  k  .  .  .
      |7  .  .  .  .  .  .  .  .
      |6  .  .  .  .  .  .  .  .
      |5  .  .  .  .  .  .  .  .
      |4  .  .  .  .  r  .  .  .
      |3  .  .  .  .  .  .  .  .
      |2  .  .  .  . [N] .  .  .
      |1  .  .  .  .  K  .  .  .
      |   a  b  c  d  e  f  g  h
      |
      |white to move
      |[ ] pinned: e2
      |( ) checkers: (none)
    `) + '\n');
  });

  it.each(backendsToRun)('a check, one colour\'s attacks (name:black), short names, backend %s', (backend) => {
    const r = show([CHECK, '-H', 'checks,attacked:black', '--backend', backend]);
    expect(r.code).toBe(0);
    // The rook's attacks run along the e-file to both kings (inclusive) and along the 4th rank; the
    // black king adds d7, e7, f7, d8, f8.
    expect(r.out).toBe(picture(`
      |8  .  .  . (.)(k)(.) .  .
      |7  .  .  . (.)(.)(.) .  .
      |6  .  .  .  . (.) .  .  .
      |5  .  .  .  . (.) .  .  .
      |4 (.)(.)(.)(.)[r](.)(.)(.)
      |3  .  .  .  . (.) .  .  .
      |2  .  .  .  . (.) .  .  .
      |1  .  .  .  . (K) .  .  .
      |   a  b  c  d  e  f  g  h
      |
      |white to move, in check
      |[ ] checkers: e4
      |( ) attacked (black): e1 e2 e3 a4 b4 c4 d4 f4 g4 h4 e5 e6 d7 e7 f7 d8 e8 f8
    `) + '\n');
  });

  it('checkmate and stalemate in the state line; an unquoted FEN (six arguments) works', () => {
    const mate = show('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3'.split(' '));
    expect(mate.code).toBe(0);
    expect(mate.out.split('\n')[10]).toBe('white to move, checkmated');
    const stale = show(['7k/5Q2/6K1/8/8/8/8/8 b - - 0 1']);
    expect(stale.out.split('\n')[10]).toBe('black to move, stalemated');
  });

  it('--flip: black at the bottom, files h..a', () => {
    const lines = show([PIN, '--flip', '-H', 'pinned']).out.split('\n');
    expect(lines.slice(0, 9)).toEqual([
      '1  .  .  .  K  .  .  .  .',
      '2  .  .  . [N] .  .  .  .',
      '3  .  .  .  .  .  .  .  .',
      '4  .  .  .  r  .  .  .  .',
      '5  .  .  .  .  .  .  .  .',
      '6  .  .  .  .  .  .  .  .',
      '7  .  .  .  .  .  .  .  .',
      '8  .  .  .  k  .  .  .  .',
      '   h  g  f  e  d  c  b  a',
    ]);
  });

  it('colour: --color gives ANSI backgrounds in the palette order; none by default on a pipe or with --no-color', () => {
    const on = show([PIN, '-H', 'pinned', '--color']);
    const swatch = (t: string) => `\x1b[30;48;2;229;115;92m${t}\x1b[0m`; // #e5735c, the first palette colour
    expect(on.out.split('\n')[6]).toBe(`2  .  .  .  . ${swatch(' N ')} .  .  .`);
    expect(on.out).toContain(`${swatch('   ')} pinned: e2`);
    expect(show([PIN, '-H', 'pinned']).out).not.toContain('\x1b[');
    expect(show([PIN, '-H', 'pinned', '--color', '--no-color']).out).not.toContain('\x1b[');
    expect(show([PIN, '-H', 'pinned', '--unicode']).out.split('\n')[6]).toBe('2  .  .  .  . [♘] .  .  .');
  });

  it('--svg FILE writes a well-formed SVG showing the highlight; --svg - prints only the SVG', () => {
    const file = join(dir, 'pin.svg');
    const r = show([PIN, '-H', 'pinned', '--svg', file]);
    expect(r.code).toBe(0);
    expect(r.out.trimEnd().split('\n').at(-1)).toBe(`SVG written to ${file}`);
    const svg = readFileSync(file, 'utf8');
    expect(xmlProblem(svg)).toBeNull();
    expect(svg).toMatch(/^<svg [^>]*viewBox="-25 -25 450 450"/);
    const piped = show([PIN, '-H', 'pinned', '--svg', '-']);
    expect(piped.out).toBe(svg);
    const bare = show([PIN, '--svg', '-', '--size', '200', '--no-coordinates']).out;
    expect(bare).toMatch(/^<svg [^>]*viewBox="0 0 200 200"/);
    if (!hasRsvg) return;
    const img = render(svg);
    // e2: file 4, rank 1: x 25 + 4*50, y 25 + 6*50 (frame of 25 px); 5% in.
    expect(near(img.pixel(25 + 200 + 2, 25 + 300 + 2), rgb('#e5735c'))).toBe(true);
    expect(near(img.pixel(25 + 150 + 2, 25 + 300 + 2), rgb('#b58863'))).toBe(true); // d2, dark, not highlighted
    const flipped = render(show([PIN, '-H', 'pinned', '--flip', '--svg', '-']).out);
    expect(near(flipped.pixel(25 + 150 + 2, 25 + 50 + 2), rgb('#e5735c'))).toBe(true); // e2 flipped: column 3, row 1
  });

  it('bad input: exit 1 for a bad FEN or an unwritable file, with a message', () => {
    const badFen = show(['not a fen']);
    expect(badFen.code).toBe(1);
    expect(badFen.err).toMatch(/bad FEN/);
    const unwritable = show([PIN, '--svg', join(dir, 'no-such-dir', 'x.svg')]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.err).toMatch(/cannot write/);
  });

  it('bad usage: exit 2 with a message; help show prints the usage', () => {
    const flag = show([PIN, '-H', 'inCheck']);
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(/inCheck is not a set of squares/);
    expect(show([PIN, '-H', 'nonsense']).err).toMatch(/unknown feature "nonsense"/);
  });

  it('more bad usage: a bad colour suffix, no FEN, a bad size, an unknown option', () => {
    expect(show([PIN, '-H', 'pinned:green']).code).toBe(2);
    expect(show([]).code).toBe(2);
    expect(show([PIN, '--size', 'big']).code).toBe(2);
    expect(show([PIN, '--wat']).code).toBe(2);
    const help = spawnSync(process.execPath, [cli, 'help', 'show']).stdout.toString();
    expect(help).toMatch(/^usage: bitboard-patterns show "<fen>"/);
  });
});
