/**
 * The opening-explorer tests' independent truth: the tree of a PGN text replayed by chessops (a dev
 * dependency). chessops reads each game, starts from its FEN and Variant tags and replays the SAN of
 * its main line; a position's key is the JS backend's polyglotKey of chessops's FEN
 * (test/games/polyglot.test.ts and polyglot-chess960.test.ts hold that key to the format); the result
 * comes from the Result tag.
 */
import { parsePgn as opsParsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import { makeFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { jsApi } from './backends.js';

export interface ReferenceRow { key: bigint; move: string; castling: boolean; games: number; white: number; draws: number; black: number; fen: string }

const ROLE_LETTER: Record<string, string> = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' };

/**
 * The tree of the first `maxPly` plies of the games of `text`, by `key|move|castling`: the standard
 * games (no Variant tag) with castling as the king's move (UCI, as the PGN reader writes it), or with
 * `chess960` the Chess960 games with castling as chessops writes it (the king takes its rook).
 */
export function referenceTree(text: string, maxPly: number, chess960 = false): Map<string, ReferenceRow> {
  const rows = new Map<string, ReferenceRow>();
  for (const game of opsParsePgn(text)) {
    if ((game.headers.get('Variant') !== undefined) !== chess960) continue;
    const pos = startingPosition(game.headers).unwrap();
    const result = game.headers.get('Result');
    let ply = 0;
    for (const node of game.moves.mainline()) {
      if (ply++ >= maxPly) break;
      const move = parseSan(pos, node.san);
      if (!move || !('from' in move)) throw new Error(`chessops cannot replay ${node.san}`);
      const fen = makeFen(pos.toSetup());
      const key = jsApi.polyglotKey(jsApi.parseFen(fen, { chess960 }));
      const piece = pos.board.get(move.from);
      const target = pos.board.get(move.to);
      // chessops writes castling as the king taking its rook, in standard chess and Chess960 alike.
      const castling = piece?.role === 'king' && target?.role === 'rook' && target.color === piece.color;
      const to = castling && !chess960 ? (move.to > move.from ? move.from + 2 : move.from - 2) : move.to;
      const uci = `${makeSquare(move.from)}${makeSquare(to)}${move.promotion ? ROLE_LETTER[move.promotion] : ''}`;
      const id = `${key}|${uci}|${castling}`;
      const row = rows.get(id) ?? { key, move: uci, castling, games: 0, white: 0, draws: 0, black: 0, fen };
      row.games++;
      if (result === '1-0') row.white++;
      else if (result === '1/2-1/2') row.draws++;
      else if (result === '0-1') row.black++;
      rows.set(id, row);
      pos.play(move);
    }
  }
  return rows;
}

/** A reference tree's rows as OpeningTree.rows() lists them (by key, then move), without their FEN. */
export function sortedRows(tree: Map<string, ReferenceRow>): Omit<ReferenceRow, 'fen'>[] {
  return [...tree.values()].sort((a, b) => (a.key !== b.key ? (a.key < b.key ? -1 : 1) : a.move < b.move ? -1 : a.move > b.move ? 1 : 0))
    .map(({ fen: _, ...r }) => r);
}
