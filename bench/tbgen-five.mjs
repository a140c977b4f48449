/**
 * One 5-piece run (not part of `bench/run.mjs`: minutes and gigabytes): generates the family of each
 * material given (sub-endings first, native, all cores unless --threads), synchronously, and prints
 * per table the time and the win / draw / loss counts per side to move. Peak memory: run it under
 * `/usr/bin/time -v`.
 *
 *   /usr/bin/time -v node bench/tbgen-five.mjs KQRvKR KRPvKR [--threads N]
 */
const { Tablebase, tablebaseMaterial, tablebaseSubMaterials } = await import('bitboard-patterns');

const args = process.argv.slice(2);
const ti = args.indexOf('--threads');
const threads = ti >= 0 ? Number(args.splice(ti, 2)[1]) : undefined;
const made = new Map();
const make = (name) => {
  if (made.has(name)) return made.get(name);
  for (const s of tablebaseSubMaterials(tablebaseMaterial('five', name))) make(s);
  const t0 = performance.now();
  const tb = Tablebase.generateSync(name, { backend: 'native', threads, known: [...made.values()] });
  const ms = performance.now() - t0;
  made.set(name, tb);
  const pieces = name.replace('v', '').length;
  if (pieces >= 4) {
    const s = tb.stats();
    const side = (x) => `legal ${x.legal} win ${x.wins} draw ${x.draws} loss ${x.losses} longest win ${x.longestWin}`;
    console.log(`${name}\t${(ms / 1000).toFixed(1)} s\twtm: ${side(s.whiteToMove)}\tbtm: ${side(s.blackToMove)}\trss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
  }
  return tb;
};
for (const m of args) make(tablebaseMaterial('five', m).name);
