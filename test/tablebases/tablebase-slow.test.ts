/**
 * Slow checks of the tablebase generator, run only with BITBOARD_PATTERNS_SLOW_TESTS=1 (about a minute natively on a
 * 2-core machine): en passant in KPvKP (both sides have pawns), against the library's perft-verified
 * legalMoves/makeMove, and the JS twin's bytes for a 4-piece pawn ending.
 */
import { describe, expect, it } from 'vitest';
import { Tablebase } from '../../lib/tablebases/tablebase.js';
import { jsApi, nativeApi } from '../support/backends.js';
import { fenOfCells } from '../core/fen-writer.js';

describe.skipIf(!process.env.BITBOARD_PATTERNS_SLOW_TESTS || !nativeApi)('KPvKP (BITBOARD_PATTERNS_SLOW_TESTS=1)', () => {
  it('every white double push an enemy pawn can take en passant: the value is the best over the moves', () => {
    const tb = Tablebase.generateSync('KPvKP', { backend: 'native' });
    let checked = 0;
    for (let wp = 8; wp < 16; wp++) {
      for (const df of [-1, 1]) {
        const file = (wp & 7) + df;
        if (file < 0 || file > 7) continue;
        const bp = 24 + file;
        for (let wk = 0; wk < 64; wk += 3) {
          for (let bk = 1; bk < 64; bk += 2) {
            if (new Set([wp, bp, wk, bk]).size < 4) continue;
            const board = new Array<string>(64).fill('');
            board[wp] = 'P'; board[bp] = 'p'; board[wk] = 'K'; board[bk] = 'k';
            const fen = fenOfCells(board, true);
            let pos;
            try { pos = jsApi.parseFen(fen); } catch { continue; } // illegal placements
            const v = tb.probe(pos);
            const moves = jsApi.legalMoves(pos);
            if (!moves.length) continue;
            let best = -Infinity;
            for (const mv of moves) {
              const a = tb.probe(jsApi.makeMove(pos, mv)); // after a double push: the en-passant square is set
              best = Math.max(best, a.wdl === 0 ? 0 : a.wdl < 0 ? 1000 - (-a.dtm! + 1) : -1000 + a.dtm!);
            }
            expect(v.wdl === 0 ? 0 : v.wdl > 0 ? 1000 - v.dtm! : -1000 - v.dtm!, fen).toBe(best);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
    const js = Tablebase.generateSync('KPvKP', { backend: 'js', known: [...tb.subTables().values()] });
    expect(Buffer.from(js.table).equals(Buffer.from(tb.table))).toBe(true);
  }, 600_000);
});
