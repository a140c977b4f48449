/** `bitboard-patterns/diagram`: SVG and text diagrams of positions and bitboards (pure TypeScript). */
export * from '../diagram/index.js';
