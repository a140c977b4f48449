#!/usr/bin/env node
/**
 * A PGN corpus for tests and the benchmark: games from random playouts (captures and checks drawn
 * more often than quiet moves, so games have tactics and end in mates now and then), written with
 * this package's own SAN writer (`toSan`), with the things real files hold mixed in: comments with
 * `[%clk]` / `[%eval]`, NAGs and `!` / `?` suffixes, variations (nested up to two deep), games from a
 * FEN / SetUp position, move numbers after comments (`12...`), lines wrapped near 80 columns.
 * Deterministic for a seed.
 *
 *   node scripts/make-pgn.mjs [games=1000] [out=-] [seed=1]
 *
 * As a module: `makePgn(api, { games, seed, maxPlies })` with api = { parseFen, legalMoves,
 * makeMove, toFen, isInCheck, toSan } (the package's exports) returns the text.
 */

function makeRandom(seed) {
  let s = (BigInt(seed) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn || 1n;
  return (n) => {
    s ^= s >> 12n; s ^= (s << 25n) & 0xffffffffffffffffn; s ^= s >> 27n;
    return Number(((s * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn) >> 33n) % n;
  };
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const NAMES = ['Carlsen, Magnus', 'Nakamura, Hikaru', 'Tal, Mikhail', 'Polgar, Judit', 'Anand, Viswanathan', 'Hou, Yifan'];

/** A random legal move, captures and checks weighted up (one in four quiet moves kept). */
function pickMove(api, pos, random) {
  const moves = api.legalMoves(pos);
  if (moves.length === 0) return null;
  for (let tries = 0; tries < 4; tries++) {
    const m = moves[random(moves.length)];
    const san = api.toSan(pos, m);
    if (san.includes('x') || san.includes('+') || san.includes('#') || random(4) === 0) return m;
  }
  return moves[random(moves.length)];
}

const clock = (random) => `${random(2)}:${String(random(60)).padStart(2, '0')}:${String(random(60)).padStart(2, '0')}`;

/** Writes the tokens of a line with wrapping near 80 columns. */
function wrap(tokens) {
  const lines = [];
  let line = '';
  for (const t of tokens) {
    if (line.length + t.length + 1 > 79 && line) { lines.push(line); line = t; } else line = line ? `${line} ${t}` : t;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** A variation from pos: a few plies of other moves, maybe with one nested variation. */
function variation(api, pos, ply, random, depth) {
  const out = [];
  let p = pos;
  const plies = 1 + random(4);
  for (let i = 0; i < plies; i++) {
    const m = pickMove(api, p, random);
    if (!m) break;
    const n = ply + i;
    if (n % 2 === 0) out.push(`${n / 2 + 1}.`);
    else if (i === 0) out.push(`${(n + 1) / 2}...`);
    out.push(api.toSan(p, m));
    if (depth < 2 && i > 0 && random(4) === 0) out.push('(', ...variation(api, p, n, random, depth + 1), ')');
    p = api.makeMove(p, m);
  }
  return out;
}

export function makePgn(api, { games = 100, seed = 1, maxPlies = 160 } = {}) {
  const random = makeRandom(seed);
  const parts = [];
  for (let g = 0; g < games; g++) {
    let pos = api.parseFen(START);
    const tags = [
      ['Event', `Corpus game ${g + 1}`], ['Site', 'bitboard-patterns'], ['Date', `2026.${String(1 + random(12)).padStart(2, '0')}.${String(1 + random(28)).padStart(2, '0')}`],
      ['Round', String(1 + random(9))], ['White', NAMES[random(NAMES.length)]], ['Black', NAMES[random(NAMES.length)]],
    ];
    // One game in eight starts from a FEN (a few random plies in).
    if (random(8) === 0) {
      for (let i = 0, n = 4 + random(16); i < n; i++) {
        const m = pickMove(api, pos, random);
        if (!m) break;
        pos = api.makeMove(pos, m);
      }
      if (api.legalMoves(pos).length === 0) pos = api.parseFen(START);
      else tags.push(['SetUp', '1'], ['FEN', api.toFen(pos)]);
    }
    const tokens = [];
    const plies = 10 + random(maxPlies);
    let ply = (pos.sideToMove === 1 ? 1 : 0);
    let result = '*';
    let needNumber = true;
    for (let i = 0; i < plies; i++) {
      const m = pickMove(api, pos, random);
      if (!m) {
        result = api.isInCheck(pos) ? (pos.sideToMove === 0 ? '0-1' : '1-0') : '1/2-1/2';
        break;
      }
      const moveNumber = pos.fullmoveNumber;
      if (pos.sideToMove === 0) tokens.push(`${moveNumber}.`);
      else if (needNumber) tokens.push(`${moveNumber}...`);
      needNumber = false;
      let san = api.toSan(pos, m);
      const r = random(40);
      if (r === 0) san += '!';
      else if (r === 1) san += '?!';
      tokens.push(san);
      if (random(10) === 0) tokens.push(`$${1 + random(20)}`);
      if (random(6) === 0) {
        tokens.push(random(2) === 0 ? `{ [%clk ${clock(random)}] }` : `{ [%eval ${(random(600) - 300) / 100}] [%clk ${clock(random)}] }`);
        needNumber = true;
      } else if (random(30) === 0) {
        tokens.push('{ a comment, with (parentheses) and [brackets] inside }');
        needNumber = true;
      }
      if (random(12) === 0) {
        const v = variation(api, pos, ply, random, 0);
        if (v.length) { tokens.push('(', ...v, ')'); needNumber = true; }
      }
      pos = api.makeMove(pos, m);
      ply++;
    }
    if (result === '*' && random(3) === 0) result = ['1-0', '0-1', '1/2-1/2'][random(3)];
    tags.push(['Result', result]);
    tokens.push(result);
    parts.push(`${tags.map(([k, v]) => `[${k} "${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`).join('\n')}\n\n${wrap(tokens).replace(/\( /g, '(').replace(/ \)/g, ')')}\n`);
  }
  return parts.join('\n');
}

// Command line.
if (import.meta.url === `file://${process.argv[1]}`) {
  const games = Number(process.argv[2] ?? 1000);
  const out = process.argv[3] ?? '-';
  const seed = Number(process.argv[4] ?? 1);
  const bp = await import('bitboard-patterns');
  const text = makePgn(bp, { games, seed });
  if (out === '-') process.stdout.write(text);
  else (await import('node:fs')).writeFileSync(out, text);
}
