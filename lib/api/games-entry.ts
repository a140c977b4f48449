/** `bitboard-patterns/games`: SAN, PGN reading. Each function follows the package's backend choice. */
export * from '../games/index.js';
