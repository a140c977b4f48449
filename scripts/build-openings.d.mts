/** Types of scripts/build-openings.mjs (the opening table's generator). */
export function openingLines(): { eco: string; name: string; pgn: string }[];
export function tableText(): string;
