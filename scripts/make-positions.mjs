#!/usr/bin/env node
/**
 * Writes examples/positions.epd: positions from random playouts from the initial position, made by
 * this package (no other chess library). Until the legal move generator lands, each ply draws a
 * uniformly random move among the candidates (every square each piece could reach by its pattern,
 * plus pawn pushes, castling and promotions) that `checkKind` accepts as legal. Deterministic
 * (fixed-seed generator). One EPD line per position: the four position fields, then
 * `hmvc`/`fmvn` and an `id` naming the game and ply.
 *
 *   node scripts/make-positions.mjs [count=10000] [out=examples/positions.epd]
 */
import { writeFileSync } from 'node:fs';
import * as bp from 'bitboard-patterns';

const count = Number(process.argv[2] ?? 10000);
const outFile = process.argv[3] ?? new URL('../examples/positions.epd', import.meta.url).pathname;

let seed = 0x2545f4914f6cdd1dn;
function random(n) {
  seed ^= seed >> 12n; seed ^= (seed << 25n) & 0xffffffffffffffffn; seed ^= seed >> 27n;
  return Number(((seed * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn) >> 33n) % n;
}

const { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, squareName, squaresOf } = bp;
const bit = (sq) => 1n << BigInt(sq);

function candidates(pos) {
  const us = pos.sideToMove;
  const own = pos.colors[us];
  const occ = pos.colors[0] | pos.colors[1];
  const moves = [];
  for (const from of squaresOf(own)) {
    const type = pos.pieces.findIndex((s) => s & bit(from));
    let targets = 0n;
    if (type === PAWN) {
      const step = us === 0 ? 8 : -8;
      for (const to of [from + step, from + 2 * step, from + step - 1, from + step + 1]) {
        if (to >= 0 && to < 64 && Math.abs((to & 7) - (from & 7)) <= 1) targets |= bit(to);
      }
    } else if (type === KNIGHT) targets = bp.knightAttacks(from);
    else if (type === BISHOP) targets = bp.bishopAttacks(from, occ);
    else if (type === ROOK) targets = bp.rookAttacks(from, occ);
    else if (type === QUEEN) targets = bp.queenAttacks(from, occ);
    else targets = bp.kingAttacks(from) | (from === (us === 0 ? 4 : 60) ? bit(from + 2) | bit(from - 2) : 0n);
    for (const to of squaresOf(targets & ~own)) {
      const last = (to >> 3) === (us === 0 ? 7 : 0);
      for (const promo of type === PAWN && last ? ['q', 'r', 'b', 'n'] : ['']) {
        const uci = `${squareName(from)}${squareName(to)}${promo}`;
        try { bp.checkKind(pos, uci); moves.push({ from, to, type, promo }); } catch { /* not legal */ }
      }
    }
  }
  return moves;
}

function play(pos, { from, to, type, promo }) {
  const us = pos.sideToMove, them = us ^ 1;
  const colors = [...pos.colors];
  const pieces = [...pos.pieces];
  const clear = (sq) => { for (let c = 0; c < 2; c++) colors[c] &= ~bit(sq); for (let t = 0; t < 6; t++) pieces[t] &= ~bit(sq); };
  const put = (sq, c, t) => { colors[c] |= bit(sq); pieces[t] |= bit(sq); };
  const capture = (pos.colors[them] & bit(to)) !== 0n;
  let epCapture = false;
  clear(from);
  clear(to);
  if (type === PAWN && to === pos.epSquare) { clear(to - (us === 0 ? 8 : -8)); epCapture = true; }
  put(to, us, promo ? ' nbrq'.indexOf(promo) : type);
  if (type === KING && Math.abs(to - from) === 2) {
    const rookFrom = to > from ? from + 3 : from - 4, rookTo = to > from ? from + 1 : from - 1;
    clear(rookFrom); put(rookTo, us, ROOK);
  }
  let castling = pos.castling;
  for (const [sq, rights] of [[4, 3], [60, 12], [0, 2], [7, 1], [56, 8], [63, 4]]) if (from === sq || to === sq) castling &= ~rights;
  let epSquare = -1;
  if (type === PAWN && Math.abs(to - from) === 16) {
    const ep = (from + to) / 2;
    // Only record it when an enemy pawn could take (what parseFen's rules expect of a FEN).
    const takers = bp.attackersTo(pos, ep, them, 0n) & pos.pieces[PAWN] & pos.colors[them];
    if (takers) epSquare = ep;
  }
  const halfmoveClock = type === PAWN || capture || epCapture ? 0 : pos.halfmoveClock + 1;
  const fullmoveNumber = pos.fullmoveNumber + (us === 1 ? 1 : 0);
  try {
    return bp.createPosition({ colors, pieces, sideToMove: them, castling, epSquare, halfmoveClock, fullmoveNumber });
  } catch {
    return bp.createPosition({ colors, pieces, sideToMove: them, castling, epSquare: -1, halfmoveClock, fullmoveNumber });
  }
}

const lines = [];
for (let game = 1; lines.length < count; game++) {
  let pos = bp.parseFen(bp.STARTING_FEN);
  const plies = 10 + random(150);
  for (let ply = 1; ply <= plies && lines.length < count; ply++) {
    const moves = candidates(pos);
    if (moves.length === 0 || pos.halfmoveClock >= 100) break;
    pos = play(pos, moves[random(moves.length)]);
    if (ply % 3 === 0 || bp.isInCheck(pos)) {
      const [placement, side, castling, ep, half, full] = bp.toFen(pos).split(' ');
      lines.push(`${placement} ${side} ${castling} ${ep} hmvc ${half}; fmvn ${full}; id "playout ${game} ply ${ply}";`);
    }
  }
}
writeFileSync(outFile, `${lines.join('\n')}\n`);
console.log(`wrote ${lines.length} positions to ${outFile}`);
