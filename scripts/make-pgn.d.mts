/** Types of scripts/make-pgn.mjs (the corpus generator). */
export interface MakePgnApi {
  parseFen(fen: string): unknown;
  legalMoves(pos: never): string[];
  makeMove(pos: never, move: string): unknown;
  toFen(pos: never): string;
  isInCheck(pos: never): boolean;
  toSan(pos: never, move: string): string;
}
export function makePgn(api: MakePgnApi, options?: { games?: number; seed?: number; maxPlies?: number }): string;
