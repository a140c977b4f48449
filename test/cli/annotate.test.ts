/**
 * `bitboard-patterns annotate` end to end (dist/cli.cjs): every move gets the eval that Stockfish
 * driven by hand gives its position in deterministic mode (--fresh, a node limit), from White's
 * view, read back with the PGN reader; the marks follow judgeMove from those evals and are written as
 * the moves' suffixes (`??`) before the NAGs the moves had; comments, clocks
 * and tags are kept; a move that carries an eval keeps it unless --force. The positions are walked
 * on every backend.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePgn } from '../../lib/games/pgn.js';
import { judgeMove } from '../../lib/engine/index.js';
import { backends } from '../support/backends.js';
import { haveStockfish, searchByHand } from '../support/stockfish.js';

const cli = resolve('dist/cli.cjs');
const PGN = `[Event "one"]
[White "w"]
[Black "b"]
[Result "0-1"]

1. f3 e5 2. g4 $14 Qh4# 0-1

[Event "two"]
[Result "1-0"]

1. e4 { [%eval 0.3] [%clk 0:01:00] } e5 {hello} 2. Qh5 Ke7 3. Qxe5# 1-0

[Event "three"]
[Result "*"]

1. d4 d5 2. c4 dxc4 3. e3 b5 4. a4 c6 5. axb5 cxb5 6. Qf3 *
`;
const NODES = 1500;

function annotate(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'annotate-'));
  try {
    writeFileSync(join(dir, 'games.pgn'), PGN);
    const r = spawnSync(process.execPath, [cli, 'annotate', join(dir, 'games.pgn'), ...args], { encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each FEN's score from White's view, by hand (searchByHand). */
async function byHand(fens: string[]): Promise<({ cp: number } | { mate: number })[]> {
  return (await searchByHand(fens, NODES)).map((r) => (r.cp !== null ? { cp: r.cp } : { mate: r.mate! }));
}

describe.runIf(haveStockfish)('annotate', () => {
  const fresh = annotate(['--engine-nodes', String(NODES), '--fresh', '--engines', '2']);
  const forced = annotate(['--engine-nodes', String(NODES), '--fresh', '--engines', '1', '--force']);

  describe.each(backends)('%s', (_name, api) => {
    it('evals equal Stockfish by hand, marks follow the rule, the rest is kept', async () => {
      expect(fresh.stderr).toBe('');
      expect(fresh.status).toBe(0);
      const input = parsePgn(PGN, { comments: true, annotations: true });
      const games = parsePgn(fresh.stdout, { comments: true, annotations: true });
      expect(games.map((g) => g.moves)).toEqual(input.map((g) => g.moves));
      expect(games.map((g) => g.tags.Event)).toEqual(['one', 'two', 'three']);
      expect(games[1]!.clocks![0]).toBe(60);
      expect(games[1]!.comments!.map((c) => c.text.trim())).toContain('hello');
      for (const [gi, g] of input.entries()) {
        const positions = [api.parseFen(g.startFen)];
        for (const m of g.moves) positions.push(api.makeMove(positions.at(-1)!, m));
        const scores = await byHand(positions.map((p) => api.toFen(p)));
        const out = games[gi]!;
        const evals = out.evals!;
        // The marks: move assessments ($1..$6); other NAGs the input had are kept after them.
        const nags = new Map((out.nags ?? []).filter((n) => n.nag >= 1 && n.nag <= 6).map((n) => [n.ply, n.nag]));
        for (let ply = 1; ply <= g.moves.length; ply++) {
          const kept = g.evals?.[ply - 1];
          const s = scores[ply]!;
          const want = kept ?? ('mate' in s && s.mate === 0 ? null : s);
          expect(evals[ply - 1], `game ${gi + 1} ply ${ply}`).toEqual(want);
          if (kept) { expect(nags.has(ply)).toBe(false); continue; }
          const before = ply === 1 ? scores[0]! : (g.evals?.[ply - 2] ?? scores[ply - 1]!);
          const j = judgeMove(before, scores[ply]!, ((ply - 1) % 2) as 0 | 1);
          expect(nags.get(ply) ?? null, `game ${gi + 1} ply ${ply}`).toBe(j === null ? null : { inaccuracy: 6, mistake: 2, blunder: 4 }[j]);
        }
      }
      // Known facts: 2. g4 lets Black mate at once; 2... Ke7 allows mate in one.
      expect(games[0]!.evals![2]).toEqual({ mate: -1 });
      expect(games[0]!.nags!.filter((n) => n.ply === 3)).toEqual([{ ply: 3, nag: 4 }, { ply: 3, nag: 14 }]);
      expect(new Map(games[1]!.nags!.map((n) => [n.ply, n.nag])).get(4)).toBe(4);
      // Written as lichess writes its marks: the move's suffix, before the NAGs the move had.
      expect(fresh.stdout).toMatch(/ 2\. g4\?\? \$14 \{/);
      expect(fresh.stdout).toMatch(/ 2\.\.\. Ke7\?\? \{/);
      expect(fresh.stdout).not.toMatch(/\$[1-6]\b/);
    });
  });

  it('--force searches again the move that carried an eval; the other evals are the same', () => {
    expect(forced.status).toBe(0);
    const a = parsePgn(fresh.stdout, { annotations: true });
    const b = parsePgn(forced.stdout, { annotations: true });
    expect(a[1]!.evals![0]).toEqual({ cp: 30 });
    expect(b[1]!.evals![0]).not.toEqual({ cp: 30 });
    expect(b[0]!.evals).toEqual(a[0]!.evals);
    expect(b[2]!.evals).toEqual(a[2]!.evals);
    expect(b[1]!.evals!.slice(1)).toEqual(a[1]!.evals!.slice(1));
  });

  it('bad usage: no limit, two limits, no file', () => {
    expect(annotate([]).status).toBe(2);
    expect(annotate(['--engine-nodes', '10', '--engine-depth', '2']).status).toBe(2);
    const r = spawnSync(process.execPath, [cli, 'annotate', '--engine-nodes', '10'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
  });

  it('a missing engine command is exit code 1 naming it', () => {
    const r = annotate(['--engine-nodes', '10', '--engine', '/nonexistent/sf']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('/nonexistent/sf');
  });
});
