/**
 * A reference reader of the PGN Specification Supplement's [%clk], [%emt] and [%eval] commands,
 * written with regular expressions from the rules of native/core/annotations.h, and games written
 * with comments carrying them (the expected arrays alongside). For the annotation tests.
 */
import type { PgnGame } from '../../lib/games/pgn.js';
import type { PgnEval } from '../../lib/games/pgn-annotations.js';

/** The reference reader: the commands of one comment, as [kind, value] pairs in order. */
export function commandsRef(text: string): [string, number | PgnEval][] {
  const out: [string, number | PgnEval][] = [];
  for (const m of text.matchAll(/\[%([a-z]*)[ \t\r\n]*([^\][]*)\]/g)) {
    const name = m[1]!;
    const value = m[2]!.replace(/[ \t\r\n]+$/, '');
    if (name === 'clk' || name === 'emt') {
      const c = /^(\d{1,5}):([0-5]\d):([0-5]\d)(?:\.(\d{1,3}))?$/.exec(value);
      if (c) out.push([name, Number(c[1]) * 3600 + Number(c[2]) * 60 + Number(c[3]) + Number((c[4] ?? '').padEnd(3, '0')) / 1000]);
    } else if (name === 'eval') {
      const e = /^(?:#([+-]?)(\d{1,4})|([+-]?)(\d{1,5})(?:\.(\d{0,9}))?)(?:,\d{1,4})?$/.exec(value);
      if (!e) continue;
      if (e[2] !== undefined) {
        out.push(['eval', { mate: (e[1] === '-' ? -1 : 1) * Number(e[2]) || 0 }]);
      } else {
        const thousandths = Number(e[4]) * 1000 + Number((e[5] ?? '').slice(0, 3).padEnd(3, '0'));
        const cp = Math.floor((thousandths + 5) / 10);
        out.push(['eval', { cp: (e[3] === '-' ? -cp : cp) || 0 }]);
      }
    }
  }
  return out;
}

/** A game written with a comment after some moves; the expected arrays from commandsRef. */
export function annotatedGame(g: PgnGame, comments: Map<number, string>, before = ''): { text: string; clocks: (number | null)[]; emts: (number | null)[]; evals: (PgnEval | null)[] } {
  const clocks = new Array<number | null>(g.sans.length).fill(null);
  const emts = new Array<number | null>(g.sans.length).fill(null);
  const evals = new Array<PgnEval | null>(g.sans.length).fill(null);
  const tokens = [`[Event "annotated"]`, '', before ? `{${before}}` : ''];
  g.sans.forEach((san, i) => {
    tokens.push(i % 2 === 0 ? `${i / 2 + 1}. ${san}` : san);
    const c = comments.get(i + 1);
    if (c !== undefined) {
      tokens.push(`{${c}}`);
      for (const [name, v] of commandsRef(c)) {
        if (name === 'clk') clocks[i] = v as number;
        else if (name === 'emt') emts[i] = v as number;
        else evals[i] = v as PgnEval;
      }
      if (i % 2 === 0) tokens.push(`${i / 2 + 1}...`);
    }
  });
  tokens.push('*');
  // Games from a FEN tag are left out of this corpus' use: they start at the standard position here.
  return { text: tokens.join(' ') + '\n', clocks, emts, evals };
}

