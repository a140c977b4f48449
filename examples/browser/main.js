// The example page: a board with pins and knight forks highlighted, and perft counted on the wasm
// backend. Served by serve.mjs (node examples/browser/serve.mjs), which maps /bundle.js to the
// package's browser bundle (dist/browser/index.js; in a project, import 'bitboard-patterns' with a
// bundler, which picks the `browser` export condition).
import * as bp from '/bundle.js';

// Two absolute pins (Bb5 pins Nd7, Bb4 pins Nc3) and a knight fork on d6 (king and queen).
const START = '2q1k3/pp1n1ppp/8/1B6/1b2N3/2N5/PP3PPP/R3K2R w KQ - 0 1';
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
$('fen').value = params.get('fen') ?? START;
if (params.has('depth')) $('depth').value = params.get('depth');
$('backend').textContent = `${bp.backend}, ${bp.cpuPath}`;

/** Squares a knight of `side` could go to, safe from pawns and knights, attacking two or more of king, queen, rooks. */
function forkSquares(pos, side) {
  const [own, enemy] = [pos.colors[side], pos.colors[side ^ 1]];
  const [P, N, , R, Q, K] = pos.pieces;
  const targets = enemy & (K | Q | R);
  const enemyPawns = enemy & P;
  const pawnAttacks = side === bp.WHITE ? ((enemyPawns >> 7n) & ~0x0101010101010101n) | ((enemyPawns >> 9n) & ~0x8080808080808080n)
    : ((enemyPawns << 9n) & ~0x0101010101010101n & 0xffffffffffffffffn) | ((enemyPawns << 7n) & ~0x8080808080808080n & 0xffffffffffffffffn);
  return bp.knightForkMoves(own & N, targets, own, pawnAttacks, bp.knightAttacksSet(enemy & N));
}

function show() {
  let pos;
  try {
    pos = bp.parseFen($('fen').value.trim());
  } catch (e) {
    $('facts').innerHTML = `<tr><td>${e.message}</td></tr>`;
    return;
  }
  const side = pos.sideToMove;
  const pinned = bp.pinnedPieces(pos, bp.WHITE) | bp.pinnedPieces(pos, bp.BLACK);
  const forks = forkSquares(pos, side);
  $('board').innerHTML = bp.toSvg(pos, {
    highlight: [{ squares: pinned, color: '#e0404099' }, { squares: forks, color: '#3070e099' }],
    check: bp.isInCheck(pos), coordinates: true,
  });
  const names = (bb) => bp.squaresOf(bb).map(bp.squareName).join(' ') || '-';
  $('facts').innerHTML = [
    ['to move', side === bp.WHITE ? 'white' : 'black'],
    ['legal moves', bp.legalMoves(pos).length],
    ['pinned', names(pinned)],
    ['pinners', names(bp.pinners(pos, bp.WHITE) | bp.pinners(pos, bp.BLACK))],
    ['fork squares', names(forks)],
  ].map(([k, v]) => `<tr><td>${k}</td><td><code>${v}</code></td></tr>`).join('');
}

/** perft on the page's backend; the result line is what bench/ reads through puppeteer. */
function runPerft() {
  const pos = bp.parseFen($('fen').value.trim());
  const depth = Number($('depth').value);
  const start = performance.now();
  const nodes = bp.perft(pos, depth);
  const ms = performance.now() - start;
  $('perft-result').textContent = `perft(${depth}) = ${nodes.toLocaleString('en')} in ${ms.toFixed(1)} ms `
    + `(${(nodes / ms / 1000).toFixed(1)} Mnodes/s, ${bp.backend})`;
  $('perft-result').dataset.nodes = String(nodes);
  $('perft-result').dataset.ms = String(ms);
}

$('fen').addEventListener('change', show);
$('run').addEventListener('click', runPerft);
show();
if (params.has('perft')) runPerft();
