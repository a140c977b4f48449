/**
 * `bitboard-patterns/engine`: a pool of UCI engine processes (Stockfish by default) answering
 * positions of this package, with a cache, deterministic mode and fault recovery. Node only (it
 * starts processes); the root export and the browser build leave it out.
 *
 * @module bitboard-patterns/engine
 */
export * from './engine/index.js';
