/**
 * EnginePool against Stockfish driven by hand (a live oracle): in deterministic mode (`fresh`, a
 * node limit, Threads=1) the pool's answer for each position must be the one the same commands give
 * when written to a Stockfish process by hand, with the score turned to White's view. The moves it
 * returns are checked on every backend as legal moves of the package's own UCI form (Chess960:
 * the king takes its rook).
 */
import { describe, expect, it } from 'vitest';
import { chess960StartPosition } from '../../lib/core/position.js';
import { EnginePool, EngineError, liveEngines, type EngineAnalysis } from '../../lib/engine/index.js';
import { backends, jsApi } from '../support/backends.js';
import { STOCKFISH, haveStockfish, requireStockfish, stockfishByHand } from '../support/stockfish.js';

const FENS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
  'r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8',
  '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', // Rd8 mates
  '3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1', // ...Rd1 mates: a mate for Black, negative from White's view
  'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3', // checkmated
  '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', // stalemate
];
const NODES = 2000;

interface Expected { score: { cp: number } | { mate: number }; pv: string[]; depth: number; seldepth: number; nodes: number; bestMove: string | null }

/** The hand-driven process's answer: the last exact `info ... multipv k ... score` line per line, bestmove. */
function readOracle(lines: string[], blackToMove: boolean): Expected[] {
  const last = new Map<number, string>();
  for (const l of lines) {
    if (!l.startsWith('info ') || !/ score /.test(l) || /bound/.test(l)) continue;
    last.set(Number(/ multipv (\d+)/.exec(l)?.[1] ?? 1), l);
  }
  const best = /^bestmove (\S+)/.exec(lines.at(-1)!)![1]!;
  return [...last.keys()].sort((a, b) => a - b).map((k) => {
    const l = last.get(k)!;
    const [, kind, v] = / score (cp|mate) (-?\d+)/.exec(l)!;
    const n = Number(v) * (blackToMove ? -1 : 1) || 0;
    const pv = / pv (.*)$/.exec(l)?.[1]!.split(' ') ?? [];
    const num = (name: string): number => Number(new RegExp(` ${name} (\\d+)`).exec(l)?.[1] ?? 0);
    return {
      score: kind === 'cp' ? { cp: n } : { mate: n }, pv, depth: num('depth'), seldepth: num('seldepth'), nodes: num('nodes'),
      bestMove: k === 1 && best !== '(none)' ? best : (pv[0] ?? null),
    };
  });
}

/** Each FEN searched by hand with the commands of deterministic mode. */
async function byHand(fens: { fen: string; chess960: boolean }[], go: string, multiPv = 1): Promise<Expected[][]> {
  const sf = stockfishByHand();
  await sf.run(['uci'], 'uciok');
  await sf.run(['setoption name Threads value 1', 'setoption name Hash value 16', 'setoption name UCI_ShowWDL value true', 'isready'], 'readyok');
  if (multiPv !== 1) await sf.run([`setoption name MultiPV value ${multiPv}`, 'isready'], 'readyok');
  const out: Expected[][] = [];
  for (const { fen, chess960 } of fens) {
    await sf.run(['ucinewgame', 'isready'], 'readyok');
    await sf.run([`setoption name UCI_Chess960 value ${chess960}`, 'isready'], 'readyok');
    const lines = await sf.run([`position fen ${fen}`, go], 'bestmove');
    out.push(readOracle(lines, fen.split(' ')[1] === 'b'));
  }
  await sf.quit();
  return out;
}

function strip(a: EngineAnalysis): Expected[] {
  return a.lines.map((l, i) => ({ score: l.score, pv: l.pv, depth: l.depth, seldepth: l.seldepth, nodes: l.nodes, bestMove: i === 0 ? a.bestMove : l.bestMove }));
}

describe('EnginePool against Stockfish driven by hand', () => {
  it('Stockfish is installed when BITBOARD_PATTERNS_REQUIRE_STOCKFISH=1', () => {
    if (requireStockfish) expect(haveStockfish, `${STOCKFISH} is missing`).toBe(true);
  });

  it.runIf(haveStockfish)('deterministic mode: every answer equals the hand-driven process, in input order over 2 engines', async () => {
    const positions = FENS.map((f) => jsApi.parseFen(f));
    const expected = await byHand(FENS.map((fen) => ({ fen, chess960: false })), `go nodes ${NODES}`);
    const pool = await EnginePool.start({ command: STOCKFISH, engines: 2, fresh: true, options: { Hash: 16 } });
    try {
      const got: EngineAnalysis[] = [];
      for await (const r of pool.analyseAll(positions, { nodes: NODES })) {
        if ('error' in r) throw r.error;
        got.push(r);
      }
      expect(got.map(strip)).toEqual(expected);
      // Known facts of these positions, from White's view.
      expect(got[3]!.score).toEqual({ mate: 1 });
      expect(got[3]!.bestMove).toBe('d1d8');
      expect(got[4]!.score).toEqual({ mate: -1 });
      expect(got[5]!.score).toEqual({ mate: 0 });
      expect(got[5]!.bestMove).toBeNull();
      expect(got[6]!.score).toEqual({ cp: 0 });
      expect(got[6]!.pv).toEqual([]);
      // UCI_ShowWDL: win/draw/loss per mille from White's view.
      expect(got[3]!.wdl).toEqual([1000, 0, 0]);
      expect(got[4]!.wdl).toEqual([0, 0, 1000]);
    } finally {
      await pool.close();
    }
  });

  it.runIf(haveStockfish)('MultiPV: an array of lines equal to the hand-driven MultiPV search', async () => {
    const fens = [FENS[0]!, FENS[2]!];
    const expected = await byHand(fens.map((fen) => ({ fen, chess960: false })), 'go nodes 1500', 3);
    const pool = await EnginePool.start({ command: STOCKFISH, engines: 1, fresh: true, options: { Hash: 16 } });
    try {
      for (const [i, fen] of fens.entries()) {
        const a = await pool.analyse(jsApi.parseFen(fen), { nodes: 1500, multiPv: 3 });
        expect(a.lines).toHaveLength(3);
        expect(strip(a)).toEqual(expected[i]);
      }
    } finally {
      await pool.close();
    }
  });

  it.runIf(haveStockfish)('options may turn UCI_ShowWDL off: no wdl, the same search as by hand', async () => {
    const fens = [FENS[0]!, FENS[3]!];
    const expected = await byHand(fens.map((fen) => ({ fen, chess960: false })), 'go nodes 800');
    for (const [show, wdl] of [[false, false], [true, true]] as const) {
      const pool = await EnginePool.start({ command: STOCKFISH, engines: 1, fresh: true, options: { Hash: 16, UCI_ShowWDL: show } });
      try {
        for (const [i, fen] of fens.entries()) {
          const a = await pool.analyse(jsApi.parseFen(fen), { nodes: 800 });
          expect(strip(a)).toEqual(expected[i]);
          expect(a.wdl !== undefined).toBe(wdl);
        }
      } finally {
        await pool.close();
      }
    }
  });

  it.runIf(haveStockfish)('Chess960: UCI_Chess960 on, the answer equals the hand-driven search, castling as king takes rook', async () => {
    const fens = [
      // White can castle either way: king b1, rooks a1 and h1 (Shredder-FEN).
      'nr3krb/pppq1ppp/2np1n2/4p3/4P3/2NP1N2/PPPQ1PPP/1R3KRB w GBgb - 4 8',
      'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9',
    ];
    const positions = fens.map((f) => jsApi.parseFen(f));
    const expected = await byHand(positions.map((p) => ({ fen: jsApi.toFen(p, { shredder: true }), chess960: true })), 'go nodes 3000');
    const pool = await EnginePool.start({ command: STOCKFISH, engines: 1, fresh: true, options: { Hash: 16 } });
    try {
      for (const [i, p] of positions.entries()) expect(strip(await pool.analyse(p, { nodes: 3000 }))).toEqual(expected[i]);
      // Castling in the search's root position: the king-takes-rook form the package generates.
      const a = await pool.analyse(positions[0]!, { nodes: 800, multiPv: 40 });
      const firsts = a.lines.map((l) => l.bestMove);
      expect(firsts).toContain('f1g1');
      expect(firsts).not.toContain('f1h1');
    } finally {
      await pool.close();
    }
  });

  describe.each(backends)('%s', (_name, api) => {
    it.runIf(haveStockfish)('every PV is a sequence of legal moves in the package\'s UCI form (standard and Chess960)', async () => {
      const positions = [
        api.parseFen(FENS[2]!),
        api.parseFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'),
        chess960StartPosition(100),
        api.parseFen('nr3krb/pppq1ppp/2np1n2/4p3/4P3/2NP1N2/PPPQ1PPP/1R3KRB w GBgb - 4 8'),
      ];
      const pool = await EnginePool.start({ command: STOCKFISH, engines: 1, options: { Threads: 1, Hash: 16 } });
      try {
        for (const p of positions) {
          const a = await pool.analyse(p, { nodes: 1000, multiPv: 8 });
          for (const line of a.lines) {
            let at = p;
            for (const m of line.pv) {
              expect(api.legalMoves(at)).toContain(m);
              at = api.makeMove(at, m);
            }
          }
        }
      } finally {
        await pool.close();
      }
    });
  });

  it.runIf(haveStockfish)('the cache answers a repeated position (Polyglot key, halfmove clock, limit) without a search', async () => {
    const pool = await EnginePool.start({ command: STOCKFISH, engines: 1, options: { Threads: 1 } });
    try {
      const p = jsApi.parseFen(FENS[0]!);
      const a = await pool.analyse(p, { depth: 3 });
      const b = await pool.analyse(jsApi.parseFen(FENS[0]!), { depth: 3 }); // another record, same key
      expect(b).toBe(a);
      await pool.analyse(p, { depth: 4 }); // another limit: a search
      // The same position reached after moves (transposition): same key, a hit.
      const transposed = ['g1f3', 'g8f6', 'f3g1', 'f6g8'].reduce((at, m) => jsApi.makeMove(at, m), p);
      expect(jsApi.polyglotKey(transposed)).toBe(jsApi.polyglotKey(p));
      expect(transposed.halfmoveClock).toBe(4);
      await pool.analyse(transposed, { depth: 3 }); // another halfmove clock: a search
      await Promise.all([pool.analyse(p, { nodes: 500 }), pool.analyse(p, { nodes: 500 })]); // one search, one hit under way
      expect(pool.stats).toMatchObject({ searches: 4, cacheHits: 2, cacheMisses: 4, hitRate: 2 / 6 });
    } finally {
      await pool.close();
    }
  });

  it.runIf(haveStockfish)('close() ends every process; a search under way or queued rejects with EngineError', async () => {
    const before = liveEngines();
    const pool = await EnginePool.start({ command: STOCKFISH, engines: 2, options: { Threads: 1 } });
    expect(liveEngines()).toBe(before + 2);
    const p = jsApi.parseFen(FENS[2]!);
    // Handled at once: they reject during close().
    const searches = [1, 2, 3].map((k) => pool.analyse(p, { movetime: 5000 + k }).catch((e: unknown) => e));
    await new Promise((r) => setTimeout(r, 100));
    await pool.close();
    expect(liveEngines()).toBe(before);
    for (const s of searches) expect(await s).toBeInstanceOf(EngineError);
    await expect(pool.analyse(p, { depth: 1 })).rejects.toMatchObject({ name: 'EngineError', problem: 'closed' });
  });
});

describe('EnginePool: bad arguments', () => {
  it('a missing command is an EngineError naming it', async () => {
    await expect(EnginePool.start({ command: '/nonexistent/engine-xyz', engines: 1 })).rejects.toMatchObject({
      name: 'EngineError', problem: 'missing', message: expect.stringContaining('/nonexistent/engine-xyz'),
    });
  });

  it('no engine on PATH nor /usr/games/stockfish: the error lists what was tried', async () => {
    const { findEngine } = await import('../../lib/engine/index.js');
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent-a:/nonexistent-b';
    try {
      const found = (() => { try { return findEngine(); } catch (e) { return e as Error; } })();
      if (found instanceof Error) {
        expect(found.message).toContain('/nonexistent-a:/nonexistent-b');
        expect(found.message).toContain('/usr/games/stockfish');
      } else {
        expect(found).toBe('/usr/games/stockfish');
      }
    } finally {
      process.env.PATH = path;
    }
  });

  it.runIf(haveStockfish)('bad options, limits and positions are TypeError / RangeError', async () => {
    await expect(EnginePool.start({ engines: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(EnginePool.start({ engines: 1.5 })).rejects.toBeInstanceOf(RangeError);
    await expect(EnginePool.start({ fresh: true, options: { Threads: 2 } })).rejects.toBeInstanceOf(RangeError);
    await expect(EnginePool.start({ command: '' })).rejects.toBeInstanceOf(TypeError);
    const pool = await EnginePool.start({ command: STOCKFISH, engines: 1 });
    try {
      const p = jsApi.parseFen(FENS[0]!);
      await expect(pool.analyse(p, {} as never)).rejects.toBeInstanceOf(TypeError);
      await expect(pool.analyse(p, { nodes: 1, depth: 1 } as never)).rejects.toBeInstanceOf(TypeError);
      await expect(pool.analyse(p, { depth: 0 })).rejects.toBeInstanceOf(RangeError);
      await expect(pool.analyse(p, { nodes: 10, multiPv: 0 })).rejects.toBeInstanceOf(RangeError);
      await expect(pool.analyse(FENS[0] as never, { nodes: 10 })).rejects.toBeInstanceOf(TypeError);
      // A bad item of analyseAll is an error in its place; the others are answered.
      const out = [];
      for await (const r of pool.analyseAll([p, 'x' as never, p], { depth: 1 })) out.push(r);
      expect(out.map((r) => ('error' in r ? r.error.name : 'ok'))).toEqual(['ok', 'TypeError', 'ok']);
    } finally {
      await pool.close();
    }
  });
});
