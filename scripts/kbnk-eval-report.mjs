#!/usr/bin/env node
/**
 * node scripts/kbnk-eval-report.mjs [--depth 3] [--positions N]   (after `npm run build`)
 *
 * Checks the KBNK mop-up evaluation (kbnkEval) against the distance-to-mate table:
 * 1. One ply: in every won position with the strong side to move (every table entry, weighted by
 *    the positions it stands for), does the move kbnkEval prefers keep the win? Ties are common (a
 *    knight move never changes the score), so three figures: the first of the preferred moves in
 *    generation order, all of them, at least one; and how often it is even an optimal move.
 * 2. Search: from the longest-mate positions (mate in 33), the strong side plays a fixed-depth
 *    minimax with kbnkEval at the leaves (mate = best, a draw = worst), the lone king defends
 *    perfectly (the table's slowest mate). Reported: mates, mates within the 50-move rule, the
 *    average length of the mates, draws (a piece lost, stalemate) and games stopped at 150 moves.
 */
import { availableParallelism } from 'node:os';
import { KbnkTablebase, kbnkEvalSquares, kbnkMoves, KBNK_DRAW, KBNK_ILLEGAL, KBNK_KING_TRIANGLE, KBNK_TABLE_SIZE } from 'bitboard-patterns';

const args = process.argv.slice(2);
const option = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : fallback; };
const DEPTH = option('--depth', 3);
const MAX_POSITIONS = option('--positions', Infinity);
const MAX_MOVES = 150;

const t0 = performance.now();
const tb = await KbnkTablebase.generate({ threads: availableParallelism() });
console.log(`table generated in ${((performance.now() - t0) / 1000).toFixed(2)} s`);

const decode = (i) => ({
  strongToMove: i < KBNK_TABLE_SIZE / 2,
  strongKing: KBNK_KING_TRIANGLE[Math.floor(i / 262144) % 10],
  bishop: (i >> 12) & 63,
  knight: (i >> 6) & 63,
  weakKing: i & 63,
});
const weightOf = (i) => (KBNK_KING_TRIANGLE[Math.floor(i / 262144) % 10] % 9 === 0 ? 4 : 8);
const valueOf = (p) => tb.value(p.strongToMove, p.strongKing, p.bishop, p.knight, p.weakKing);
const evalOf = (p) => kbnkEvalSquares(p.strongKing, p.bishop, p.knight, p.weakKing);

// ---------------------------------------------------------------- 1. one ply
let positions = 0, firstKeeps = 0, allKeep = 0, someKeeps = 0, firstOptimal = 0;
for (let i = 0; i < KBNK_TABLE_SIZE / 2; i++) {
  const v = tb.table[i];
  if (v === KBNK_DRAW || v === KBNK_ILLEGAL) continue;
  const p = decode(i), w = weightOf(i);
  let best = -1, bestMoves = [];
  for (const m of kbnkMoves(p)) {
    const e = evalOf(m.next);
    if (e > best) { best = e; bestMoves = [m]; } else if (e === best) bestMoves.push(m);
  }
  const keeps = bestMoves.map((m) => valueOf(m.next) !== KBNK_DRAW);
  positions += w;
  if (keeps[0]) firstKeeps += w;
  if (keeps.every(Boolean)) allKeep += w;
  if (keeps.some(Boolean)) someKeeps += w;
  if (valueOf(bestMoves[0].next) === v - 1) firstOptimal += w;
}
const pct = (x) => `${((100 * x) / positions).toFixed(2)}%`;
console.log(`\n1. one ply, over all ${positions.toLocaleString('en-US')} won positions with the strong side to move:`);
console.log(`   the first preferred move keeps the win: ${pct(firstKeeps)} (${(positions - firstKeeps).toLocaleString('en-US')} positions throw it away)`);
console.log(`   every preferred move keeps the win: ${pct(allKeep)}; at least one does: ${pct(someKeeps)}`);
console.log(`   the first preferred move is an optimal (fastest-mate) move: ${pct(firstOptimal)}`);

// ---------------------------------------------------------------- 2. search
const MATE = 10000, DRAWN = -10000;
/** Minimax value for the strong side of position p with `depth` plies left. */
function search(p, depth) {
  const moves = kbnkMoves(p);
  if (!p.strongToMove) {
    if (moves.length === 0) return valueOf(p) === 0 ? MATE + depth : DRAWN; // mate, or stalemate
    if (moves.some((m) => m.next === null)) return DRAWN; // the lone king takes a piece
  }
  if (depth === 0) return evalOf(p);
  let best = p.strongToMove ? -Infinity : Infinity;
  for (const m of moves) {
    const s = search(m.next, depth - 1);
    if (p.strongToMove ? s > best : s < best) best = s;
  }
  return best;
}

/**
 * Plays one game: the strong side plays the DEPTH-ply search, the lone king defends perfectly (the
 * table's slowest mate), for at most MAX_MOVES moves of the strong side. Returns [outcome ('mate' |
 * 'draw' | 'stopped'), the strong side's moves, the nearest mate (in moves) it reached on its turns].
 */
function play(start) {
  let p = start, moves = 0, nearest = Infinity;
  for (;;) {
    const v = valueOf(p);
    if (p.strongToMove) {
      if (v !== KBNK_DRAW) nearest = Math.min(nearest, (v + 1) >> 1);
      if (moves === MAX_MOVES) return ['stopped', moves, nearest];
      let best = -Infinity, chosen = null;
      for (const m of kbnkMoves(p)) {
        const s = search(m.next, DEPTH - 1);
        if (s > best) { best = s; chosen = m; }
      }
      p = chosen.next;
      moves++;
    } else {
      if (v === 0) return ['mate', moves, nearest];
      if (v === KBNK_DRAW) return ['draw', moves, nearest];
      p = tb.bestKbnkMove(p).next;
    }
  }
}

const longest = [];
for (let i = 0; i < KBNK_TABLE_SIZE / 2; i++) if (tb.table[i] === 65) longest.push(i);
// one position per symmetry class: the diagonal twins (strong king on a1-d4) are the same position
const transpose = (sq) => ((sq & 7) << 3) | (sq >> 3);
const seen = new Set();
const starts = [];
for (const i of longest) {
  const p = decode(i);
  if (seen.has(i)) continue;
  seen.add(i);
  if (p.strongKing % 9 === 0) seen.add(tbIndex(p, transpose));
  starts.push(p);
}
function tbIndex(p, map) {
  const t = KBNK_KING_TRIANGLE.indexOf(map(p.strongKing));
  return ((t * 64 + map(p.bishop)) * 64 + map(p.knight)) * 64 + map(p.weakKing);
}

const games = starts.slice(0, MAX_POSITIONS);
let mates = 0, matesIn50 = 0, mateMoves = 0, draws = 0, stopped = 0, closestSum = 0, closest = Infinity;
const t1 = performance.now();
for (const start of games) {
  const [outcome, moves, nearest] = play(start);
  if (outcome !== 'mate') { closestSum += nearest; closest = Math.min(closest, nearest); }
  if (outcome === 'mate') { mates++; mateMoves += moves; if (moves <= 50) matesIn50++; }
  else if (outcome === 'draw') draws++;
  else stopped++;
}
console.log(`\n2. ${DEPTH}-ply search with kbnkEval at the leaves against perfect defence, from ${games.length} mate-in-33 positions (one per symmetry class):`);
console.log(`   mates: ${mates} (${matesIn50} within 50 moves), average ${mates ? (mateMoves / mates).toFixed(1) : '-'} moves (optimal: 33)`);
console.log(`   draws (piece lost or stalemate): ${draws}; no mate after ${MAX_MOVES} moves: ${stopped}`);
if (mates < games.length) {
  console.log(`   games without mate got on average to a mate in ${(closestSum / (games.length - mates)).toFixed(1)} (closest: mate in ${closest}) before the win slipped or stalled`);
}
console.log(`   (${((performance.now() - t1) / 1000).toFixed(1)} s)`);

// ---------------------------------------------------------------- 3. by starting distance
const PER_BUCKET = option('--per-bucket', 40);
let seed = 2463534242;
const rand = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 4294967296; };
const byDtm = new Map();
for (let i = 0; i < KBNK_TABLE_SIZE / 2; i++) {
  const v = tb.table[i];
  if (v === KBNK_DRAW || v === KBNK_ILLEGAL) continue;
  const bucket = Math.min(6, Math.floor(((v + 1) >> 1) / 5.0001)); // dtm 1-5, 6-10, ..., 31-33
  if (!byDtm.has(bucket)) byDtm.set(bucket, []);
  byDtm.get(bucket).push(i);
}
console.log(`\n3. the same ${DEPTH}-ply search from ${PER_BUCKET} random won positions per distance to mate:`);
console.log('   dtm      mates  within 50  avg moves (optimal)  draws  no mate');
for (const bucket of [...byDtm.keys()].sort((a, b) => a - b)) {
  const all = byDtm.get(bucket);
  let m = 0, m50 = 0, moveSum = 0, optimalSum = 0, d = 0, st = 0;
  for (let k = 0; k < PER_BUCKET; k++) {
    const i = all[Math.floor(rand() * all.length)];
    const [outcome, moves] = play(decode(i));
    if (outcome === 'mate') { m++; moveSum += moves; optimalSum += (tb.table[i] + 1) >> 1; if (moves <= 50) m50++; }
    else if (outcome === 'draw') d++; else st++;
  }
  const label = `${bucket * 5 + 1}-${Math.min(33, bucket * 5 + 5)}`.padEnd(7);
  const avg = m ? `${(moveSum / m).toFixed(1)} (${(optimalSum / m).toFixed(1)})` : '-';
  console.log(`   ${label}  ${String(m).padStart(5)}  ${String(m50).padStart(9)}  ${avg.padStart(19)}  ${String(d).padStart(5)}  ${String(st).padStart(7)}`);
}
