/** The diagrams topic's public surface: SVG and text boards (`bitboard-patterns/diagram` and the root). */
export {
  toSvg, bitboardSvg, toText, colorByDefault, BOARD_COLORS, LAST_MOVE_COLORS, BITBOARD_COLOR, ANSI_COLORS, TEXT_MARKS, SHAPE_COLORS,
} from './diagram.js';
export type { Highlight, TextHighlight, Arrow, MarkedSquare, SvgOptions, BitboardSvgOptions, TextOptions } from './diagram.js';
