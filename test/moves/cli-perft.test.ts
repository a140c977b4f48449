/**
 * The `perft` subcommand of the built CLI (dist/cli.cjs; `npm test` builds first): counts, --divide,
 * --stats, --backend, and exit code 2 with a message for a bad FEN, depth or option.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nativeApi, wasmApi } from '../support/backends.js';

const cli = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe.skipIf(!existsSync(cli))('bitboard-patterns perft (dist/cli.cjs)', () => {
  const engines = ['js', ...(nativeApi ? ['native'] : []), ...(wasmApi ? ['wasm'] : [])];

  it.each(engines)('counts nodes and prints the speed (--backend %s)', (backend) => {
    const r = run('perft', KIWIPETE, '3', '--backend', backend);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`^perft\\(3\\) = 97862 nodes in [\\d.]+ s \\(.*, ${backend} backend(, \\d+ threads?)?\\)\\n$`));
  });

  it('the ESM build of the CLI (dist/cli.js) counts the same', () => {
    const esm = spawnSync(process.execPath, [fileURLToPath(new URL('../../dist/cli.js', import.meta.url)), 'perft', KIWIPETE, '3', '--stats'],
      { encoding: 'utf8', env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
    const cjs = run('perft', KIWIPETE, '3', '--stats');
    expect(esm.status, esm.stderr).toBe(0);
    const counts = (out: string) => out.split('\n').filter((l) => /^  \w/.test(l) || /^perft\(3\) = 97862 nodes/.test(l)).map((l) => l.replace(/ in .*/, ''));
    expect(counts(esm.stdout)).toEqual(counts(cjs.out));
    expect(counts(cjs.out)).toHaveLength(10);
  });

  it('startpos and --divide: one line per move, sorted, then the total', () => {
    const r = run('perft', 'startpos', '3', '--divide', '--backend', 'js');
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines.slice(0, 20)).toEqual(expect.arrayContaining(['e2e4: 600', 'g1f3: 440', 'a2a3: 380']));
    const moves = lines.slice(0, 20).map((l) => l.split(':')[0]);
    expect(moves).toEqual([...moves].sort());
    expect(lines.slice(0, 20).reduce((s, l) => s + Number(l.split(': ')[1]), 0)).toBe(8902);
    expect(lines).toContain('moves: 20');
    expect(lines.at(-1)).toMatch(/^perft\(3\) = 8902 nodes/);
  });

  it('--stats prints the nine columns', () => {
    const r = run('perft', KIWIPETE, '2', '--stats');
    expect(r.code, r.err).toBe(0);
    for (const [name, n] of [['nodes', 2039], ['captures', 351], ['enPassant', 1], ['castles', 91], ['promotions', 0], ['checks', 3],
      ['discoveryChecks', 0], ['doubleChecks', 0], ['checkmates', 0]] as const) {
      expect(r.out).toMatch(new RegExp(`\\n  ${name} +${n}\\n`));
    }
  });

  it.each([
    ['a bad FEN', ['perft', 'not a fen', '3'], /bad FEN/],
    ['an illegal position', ['perft', '8/8/8/8/8/8/8/8 w - - 0 1', '1'], /bad FEN pieces/],
    ['a negative depth', ['perft', 'startpos', '-1'], /unknown option|depth/],
    ['depth 21', ['perft', 'startpos', '21'], /depth must be an integer 0..20/],
    ['depth 2.5', ['perft', 'startpos', '2.5'], /depth must be an integer 0..20/],
    ['no depth', ['perft', 'startpos'], /expected a FEN and a depth/],
    ['an unknown option', ['perft', 'startpos', '2', '--fast'], /unknown option --fast/],
    ['an unknown backend', ['perft', 'startpos', '2', '--backend', 'gpu'], /--backend must be native, wasm or js/],
    ['--divide at depth 0', ['perft', 'startpos', '0', '--divide'], /--divide needs depth 1/],
    ['--threads 0', ['perft', 'startpos', '2', '--threads', '0'], /--threads must be an integer 1..256/],
    ['--threads 257', ['perft', 'startpos', '2', '--threads=257'], /--threads must be an integer 1..256/],
    ['--threads 1.5', ['perft', 'startpos', '2', '--threads', '1.5'], /--threads must be an integer 1..256/],
    ['--threads without a value', ['perft', 'startpos', '2', '--threads'], /--threads needs a value/],
  ])('%s: exit code 2 and a message', (_n, args, message) => {
    const r = run(...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).toMatch(/usage: bitboard-patterns perft/);
  });

  // Kiwipete depth 4 (CPW "Perft Results": 4085603) and its statistics row (depth 3) on 1 and 3 threads.
  it.each(engines)('--threads N gives the CPW counts (--backend %s)', (backend) => {
    const depth = backend === 'native' ? '4' : '3';
    const nodes = backend === 'native' ? 4085603 : 97862;
    for (const threads of ['1', '3']) {
      const r = run('perft', KIWIPETE, depth, '--threads', threads, '--backend', backend);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(new RegExp(`^perft\\(${depth}\\) = ${nodes} nodes in `));
      if (backend === 'native') expect(r.out).toContain(`native backend, ${threads} thread`);
      const st = run('perft', KIWIPETE, '3', '--stats', `--threads=${threads}`, '--backend', backend);
      expect(st.code, st.err).toBe(0);
      expect(st.out).toMatch(/captures\s+17102\n/);
      expect(st.out).toMatch(/checkmates\s+1\n/);
    }
  });

  it('help lists the subcommand', () => {
    expect(run('help').out).toContain('bitboard-patterns perft');
    expect(run('help', 'perft').out).toContain('--divide');
  });
});
