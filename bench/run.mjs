#!/usr/bin/env node
/**
 * npm run bench [-- --quick] [-- --filter <regexp>]
 *
 * Runs every section in bench/sections/ in this one process: each measures the JS backend, the
 * native addon (single calls and batch forms), a plain C++ loop over the same core (compiled here
 * with the addon's flags) and, where the section has them, peer libraries; every comparison is a
 * ratio taken in the same run. `--filter` keeps the functions (rows) whose name matches.
 */
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import * as js from 'bitboard-patterns/js';
import { benchDir, compileCpp, cppFlags, printTable } from './lib.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const filterAt = args.indexOf('--filter');
const filter = filterAt >= 0 ? new RegExp(args[filterAt + 1] ?? '', 'i') : null;

let native = null;
try {
  native = await import('bitboard-patterns/native');
} catch (e) {
  console.warn(`native backend unavailable, benchmarking JS only: ${e.message}`);
}

console.log(`# bitboard-patterns bench${quick ? ' (--quick)' : ''}`);
console.log(`${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}; `
  + `native cpuPath: ${native?.cpuPath ?? 'unavailable'}; C++ flags: ${cppFlags(native).filter((f) => f.startsWith('-m') || f.startsWith('-O') || f.startsWith('-D')).join(' ')}`);

const baseline = compileCpp('baseline', native);
const order = ['patterns', 'checks', 'perft', 'kbnk'];
const sections = readdirSync(join(benchDir, 'sections')).filter((f) => f.endsWith('.mjs'))
  .map((f) => f.slice(0, -4)).sort((x, y) => (order.indexOf(x) + 1 || 99) - (order.indexOf(y) + 1 || 99) || x.localeCompare(y));
for (const name of sections) {
  const section = await import(join(benchDir, 'sections', `${name}.mjs`));
  const result = await section.run({ js, native, quick, filter, baseline });
  if (result) printTable({ title: section.title, ...result });
}
