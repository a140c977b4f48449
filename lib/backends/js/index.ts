/**
 * The pure-TypeScript backend: the same contract as the native addon (`../contract.ts`), used when
 * no native binary loads and importable alone for comparisons. Its members are the functions its
 * topic modules export, by name: a function added to a topic module (and to the contract) needs no
 * line here.
 */
import type { Backend } from '../contract.js';
import { jsBatch } from './batch.js';
import * as checks from './checks.js';
import * as kbnk from './kbnk.js';
import * as king from './king.js';
import * as knight from './knight.js';
import * as makemove from './makemove.js';
import * as motifs from './motifs.js';
import * as outcome from './outcome.js';
import * as perft from './perft.js';
import * as polyglot from './polyglot.js';
import * as sliders from '../../board/sliders.js';
import { jsSanBackend } from './san.js';
import { jsPgnBackend } from './pgn.js';

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * The functions the modules export, in one object. A name exported by two modules is an error at
 * load: each Backend member has one twin.
 */
function functionsOf<M extends object[]>(...modules: M): Intersection<M[number]> {
  const out: Record<string, unknown> = {};
  for (const m of modules) {
    for (const [name, value] of Object.entries(m)) {
      if (typeof value !== 'function') continue;
      if (name in out) throw new Error(`lib/backends/js: ${name} is exported by two topic modules`);
      out[name] = value;
    }
  }
  return out as Intersection<M[number]>;
}

/** The BigInt implementation of {@link Backend}. */
export const jsBackend: Backend = {
  ...functionsOf(king, knight, sliders, checks, motifs, makemove, perft, kbnk, polyglot, outcome),
  name: 'js',
  cpuPath: 'bigint',
  batch: jsBatch,
  san: jsSanBackend,
  pgn: jsPgnBackend,
  tbgen: null,
  syzygy: null,
  variants: {
    ...checks.checkVariants,
    distantCheckLinesBranchy: king.distantCheckLinesBranchy,
    distantCheckLinesBranchless: king.distantCheckLinesBranchless,
    knightAttacksSetEastWest: knight.knightAttacksSetEastWest,
    knightAttacksSetParallel: knight.knightAttacksSetParallel,
  },
};
