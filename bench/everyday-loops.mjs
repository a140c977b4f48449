/**
 * The everyday section's loops over one of this package's APIs (bench/sections/everyday.mjs imports
 * this file once per API, so that each has call sites of its own).
 */
/** Loops of one operation over every position (or game) of the corpus. */
export function loops(api, plies, replays) {
  const positions = plies.map((p) => api.parseFen(p.fen));
  const inits = positions.map((p) => ({ pieces: p.pieces, colors: p.colors, sideToMove: p.sideToMove, castling: p.castling,
    epSquare: p.epSquare, halfmoveClock: p.halfmoveClock, fullmoveNumber: p.fullmoveNumber }));
  const starts = replays.map((g) => api.parseFen(g.start));
  let sink = 0;
  const over = (f) => (reps) => { for (let r = 0; r < reps; r++) for (let i = 0; i < plies.length; i++) sink += f(i); };
  return {
    parseFen: over((i) => api.parseFen(plies[i].fen).sideToMove),
    toFen: over((i) => api.toFen(positions[i]).length),
    legalMoves: over((i) => api.legalMoves(positions[i]).length),
    makeMove: over((i) => api.makeMove(positions[i], plies[i].uci).sideToMove),
    toSan: over((i) => api.toSan(positions[i], plies[i].uci).length),
    parseSan: over((i) => api.parseSan(positions[i], plies[i].san).length),
    createPosition: over((i) => api.createPosition(inits[i]).sideToMove),
    replay: (reps) => {
      for (let r = 0; r < reps; r++) {
        for (let g = 0; g < replays.length; g++) {
          let pos = starts[g];
          for (const m of replays[g].moves) { pos = api.makeMove(pos, m); sink += api.toFen(pos).length; }
        }
      }
    },
    sink: () => sink,
  };
}

