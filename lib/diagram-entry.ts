/**
 * `bitboard-patterns/diagram`: SVG and text diagrams of positions and bitboards (pure TypeScript).
 *
 * @module bitboard-patterns/diagram
 */
export * from './diagram/index.js';
