/**
 * The tests' own FEN writer (the placement field of the PGN standard's FEN, section 16.1.3.1),
 * written square by square and independent of the library's toFen: the tests that build positions
 * from squares (tablebase entries, random placements, the reference boards) turn them into FENs
 * with it and hand those to the library's parseFen.
 */

/**
 * The placement field of a board of 64 cells (a1 = 0 .. h8 = 63), each a piece letter (upper case
 * white) or '' / undefined for an empty square: ranks 8 to 1, runs of empty squares as digits.
 */
export function placementOf(cells: readonly (string | undefined)[]): string {
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const piece = cells[r * 8 + f];
      if (!piece) { empty++; continue; }
      if (empty) row += empty;
      empty = 0;
      row += piece;
    }
    rows.push(empty ? row + empty : row);
  }
  return rows.join('/');
}

/** A FEN without castling rights or en-passant square, clocks 0 1: `placement side - - 0 1`. */
export const fenOfCells = (cells: readonly (string | undefined)[], whiteToMove: boolean): string =>
  `${placementOf(cells)} ${whiteToMove ? 'w' : 'b'} - - 0 1`;
