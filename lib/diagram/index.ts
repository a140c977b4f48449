/** The diagrams topic's public surface: SVG and text boards (`bitboard-patterns/diagram` and the root). */
export {
  toSvg, bitboardSvg, toText, colorByDefault, BOARD_COLORS, LAST_MOVE_COLORS, BITBOARD_COLOR, ANSI_COLORS, TEXT_MARKS,
} from './diagram.js';
export type { Highlight, TextHighlight, Arrow, SvgOptions, BitboardSvgOptions, TextOptions } from './diagram.js';
