/**
 * `bitboard-patterns/games`: SAN, PGN reading and writing, EPD, Polyglot books, the rules that end a
 * game. Each function follows the package's backend choice.
 *
 * @module bitboard-patterns/games
 */
export * from './games/index.js';
