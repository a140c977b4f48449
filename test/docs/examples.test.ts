/**
 * Every JavaScript example of README.md and docs/ runs, against the built package (dist/, imported
 * by the package's own name), and shows true values: each ```js block is written to a module of its
 * own and run by Node, with its checked comments turned into assertions:
 *
 *   kingAttacks(sq('g2'));            // => 0xe0a0e0n        the value (a JS expression), deep-equal
 *   const p = parseFen(fen);          // => ...              a declaration checks the declared name
 *   makeMove(start, 'e2e5');          // throws MoveError    the call throws an error of that name
 *
 * A comment that is not `// =>` or `// throws` is prose and checks nothing. A block that can only
 * run in a page (it fetches from the page's server) is fenced ```js browser and is not run here;
 * test/browser/browser.test.ts holds the browser bundle's answers to Node's.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const OUT = join(ROOT, '.doc-examples');

/** The Markdown files whose examples are run. */
const FILES = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

interface Block { file: string; line: number; code: string }

export function blocksOf(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```js') continue;
    const start = i + 1;
    let j = start;
    while (j < lines.length && lines[j]!.trim() !== '```') j++;
    blocks.push({ file, line: start + 1, code: lines.slice(start, j).join('\n') });
    i = j;
  }
  return blocks;
}

const CHECK = /^(\s*)(.*?);?\s*\/\/ => (.+)$/;
const THROWS = /^(\s*)(.*?);?\s*\/\/ throws (\w+)/;
const DECLARED = /^(?:const|let|var)\s+(\w+)\s*=/;

/** The block as a module: its checked comments become assertions naming file:line. */
export function instrument(block: Block): { source: string; checks: number } {
  let checks = 0;
  const out = block.code.split('\n').map((line, k) => {
    const where = JSON.stringify(`${block.file}:${block.line + k}`);
    let m = THROWS.exec(line);
    if (m && m[2]) {
      checks++;
      return `${m[1]}__throws(() => { ${m[2]}; }, ${JSON.stringify(m[3])}, ${where});`;
    }
    m = CHECK.exec(line);
    if (m && m[2]) {
      checks++;
      const decl = DECLARED.exec(m[2]);
      return decl ? `${m[1]}${m[2]}; __check(${decl[1]}, (${m[3]}), ${where});`
        : `${m[1]}__check(await (${m[2]}), (${m[3]}), ${where});`;
    }
    return line;
  });
  const helpers = [
    "import { isDeepStrictEqual as __same, inspect as __inspect } from 'node:util';",
    'const __check = (actual, expected, where) => {',
    "  if (!__same(actual, expected)) throw new Error(`${where}: shows ${__inspect(expected)} but gives ${__inspect(actual)}`);",
    '};',
    'const __throws = (f, name, where) => {',
    '  try { f(); } catch (e) { if (e?.name === name) return; throw new Error(`${where}: shows ${name} but throws ${e?.name}: ${e?.message}`); }',
    '  throw new Error(`${where}: shows ${name} but throws nothing`);',
    '};',
  ];
  // Imports first (a module's imports may not follow statements of the block's own).
  const imports: string[] = [];
  const body: string[] = [];
  let inImport = false;
  for (const line of out) {
    if (/^import\s/.test(line) || inImport) {
      imports.push(line);
      inImport = !/from\s+['"][^'"]+['"];?\s*(\/\/.*)?$/.test(line) && !/^import\s+['"]/.test(line);
    } else body.push(line);
  }
  return { source: [...imports, ...helpers, ...body, ''].join('\n'), checks };
}

const blocks = FILES.flatMap((f) => blocksOf(f, readFileSync(f, 'utf8')));

describe('the examples of README.md and docs/ run and show true values', () => {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });

  it('there are examples, and every block checks at least one value', () => {
    expect(blocks.length).toBeGreaterThan(10);
    for (const b of blocks) expect(instrument(b).checks, `${b.file}:${b.line}`).toBeGreaterThan(0);
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line}`, b] as const))('%s', (_where, b) => {
    const file = join(OUT, `${b.file.replace(/[/.]/g, '_')}_${b.line}.mjs`);
    writeFileSync(file, instrument(b).source);
    try {
      execFileSync(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    } catch (e) {
      const err = e as { stderr?: Buffer };
      throw new Error(err.stderr?.toString() || String(e));
    }
  }, 150_000);
});
