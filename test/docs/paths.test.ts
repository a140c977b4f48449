/**
 * Every file of this repository that a comment, a doc or a script names by its path exists: a path
 * that moved without its mentions is a stale comment. Paths are read from the sources (lib, native,
 * test, scripts, bench), docs/, README.md, ARCHITECTURE.md and .ci/run; a `.js` path in an
 * import-like mention names its `.ts` source, and paths with a placeholder (NAME, TOPIC, N) are
 * patterns.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['lib', 'native', 'test', 'scripts', 'bench', 'docs'];
const FILES = ['README.md', 'ARCHITECTURE.md', '.ci/run', 'binding.gyp', 'CMakeLists.txt'];
const TEXT = /\.(ts|mjs|cjs|h|cc|md|py|sh|gyp|txt)$/;
const SKIP_DIRS = new Set(['node_modules', 'results', 'api', '.build', 'fixtures']);

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!SKIP_DIRS.has(name)) walk(p, out);
    } else if (TEXT.test(name)) out.push(p);
  }
  return out;
}

const PATH = /\b(?:lib|native|test|scripts|bench|docs|examples)\/[A-Za-z0-9_./-]+\.(?:ts|mjs|cjs|js|h|cc|md|py|txt|json|sh|epd|pgn)\b/g;
const PLACEHOLDER = /NAME|TOPIC|-N\.|\bN\b/;

describe('paths named in comments and docs', () => {
  it('exist', () => {
    const sources = [...ROOTS.flatMap((r) => walk(r, [])), ...FILES.filter((f) => existsSync(f))];
    const missing: string[] = [];
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(PATH)) {
        const p = m[0];
        if (PLACEHOLDER.test(p) || existsSync(p)) continue;
        if (p.endsWith('.js') && (existsSync(p.replace(/\.js$/, '.ts')) || existsSync(p.replace(/\.js$/, '.mts')))) continue;
        missing.push(`${file}: ${p}`);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });
});
