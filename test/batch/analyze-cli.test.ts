/**
 * The `analyze` subcommand end to end (dist/cli.cjs, the package's bin): records in input order, native and JS backends
 * byte-identical, any thread count byte-identical, error records and exit codes, --strict, gzip,
 * stdin, CSV, feature selection and bad usage.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { nativeApi } from '../support/backends.js';
import { CHUNK_BYTES, MIN_CHUNK_BYTES, SLOT_BYTES, chunkCount, chunkPlan, chunkRange } from '../../lib/cli/analyze-control.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.cjs');
const sample = join(root, 'examples', 'positions.epd');
const dir = mkdtempSync(join(tmpdir(), 'bbp-analyze-'));

function analyze(args: string[], input?: Buffer | string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [cli, 'analyze', ...args],
    { input, maxBuffer: 1 << 30, env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '', ...env } });
  return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}
/** The worker threads' pipeline, which a plain file on the native backend otherwise does not take. */
const WORKERS = { BITBOARD_PATTERNS_ANALYZE_PIPELINE: 'workers' };

describe('the chunk plan of a file read in byte ranges', () => {
  it('cuts [0, size) into chunks of at most CHUNK_BYTES that shrink towards the end, none under MIN_CHUNK_BYTES but the last', () => {
    for (const size of [0, 1, MIN_CHUNK_BYTES - 1, MIN_CHUNK_BYTES, CHUNK_BYTES, 5 * CHUNK_BYTES + 17, 100 * CHUNK_BYTES + 12345]) {
      for (const threads of [1, 2, 3, 8]) {
        const plan = chunkPlan(size, threads);
        const ranges = Array.from({ length: chunkCount(plan) }, (_, k) => chunkRange(plan, k));
        let at = 0;
        for (const [k, [lo, hi]] of ranges.entries()) {
          expect(lo).toBe(at);
          expect(hi).toBeGreaterThan(lo);
          expect(hi - lo).toBeLessThanOrEqual(CHUNK_BYTES);
          if (k < ranges.length - 1) expect(hi - lo).toBeGreaterThanOrEqual(MIN_CHUNK_BYTES);
          if (k > 0 && k < ranges.length - 1) expect(hi - lo).toBeLessThanOrEqual(ranges[k - 1]![1] - ranges[k - 1]![0]);
          at = hi;
        }
        expect(at).toBe(size);
        // The last 2 * threads chunks together hold under 2 * threads full chunks' worth: the tail is cut finer.
        if (size > 4 * threads * CHUNK_BYTES) {
          const last = ranges.slice(-2 * threads);
          expect(last.reduce((s, [lo, hi]) => s + hi - lo, 0)).toBeLessThan(2 * threads * CHUNK_BYTES);
        }
      }
    }
  });
});

describe('bitboard-patterns analyze', () => {
  afterAll(() => { rmSync(dir, { recursive: true, force: true }); });
  const lines = readFileSync(sample, 'utf8').trim().split('\n');

  it('the README command: one record per line, in order, exit 0, quiet stderr', () => {
    const r = analyze([sample]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const records = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.length).toBe(lines.length);
    records.forEach((rec, i) => { expect(rec.line).toBe(i + 1); expect(rec.input).toBe(lines[i]); });
    expect(Object.keys(records[0])).toEqual(['line', 'input', 'checkers', 'pinned', 'discoveredCheckCandidates', 'attacked',
      'kingZoneAttacks', 'distantCheckLines', 'pawnShieldIndex', 'uncatchablePassers', 'knightForkSquares', 'inCheck',
      'legalMoveCount', 'checkmate', 'stalemate', 'polyglotKey', 'hanging', 'forks', 'relativePins', 'skewers', 'discoveredAttacks']);
  });

  it.runIf(nativeApi)('native and JS backends, 1 or 3 threads: byte-identical output', () => {
    const small = join(dir, 'small.epd');
    writeFileSync(small, `${lines.slice(0, 1500).join('\n')}\n`);
    const a = analyze([small, '--backend', 'native', '--threads', '1']);
    const b = analyze([small, '--backend', 'js', '--threads', '3']);
    const c = analyze([small, '--backend', 'native', '--threads', '3', '--format', 'csv']);
    const d = analyze([small, '--backend', 'js', '--threads', '1', '--format', 'csv']);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    expect(c.out).toBe(d.out);
    expect(c.out.split('\n')[0]).toMatch(/^line,input,checkers_w,checkers_b,.*,inCheck,legalMoveCount,checkmate,stalemate,polyglotKey,hanging_w,.*,discoveredAttacks_b,error$/);
  });

  it('1, 2 and 3 threads, a file or stdin: the same bytes, every record at its line, error records in order', () => {
    // 2.5 MiB, so the file is read in several byte ranges. Truth: the test places every line itself
    // (bad lines, blank and comment lines, CRLF ends, a BOM, no final newline), some of them starting
    // exactly where a range starts under the chunk plans of 1, 2 and 3 threads.
    const size = 5 << 19;
    const input: string[] = [];
    const bad = new Set<number>();
    for (let i = 0, bytes = 3; bytes < size; i++) {
      const n = input.length + 1;
      if (n % 997 === 0) { input.push(`nonsense ${n}`); bad.add(n); }
      else if (n % 1013 === 0) input.push(n % 2 ? '' : `# comment ${n}`);
      else input.push(lines[i % lines.length]! + (n % 7 === 0 ? '\r' : ''));
      bytes += Buffer.byteLength(`${input[n - 1]}\n`);
    }
    // Pads comment line m so that the line after it starts exactly at byte `at` (after the 3-byte BOM).
    const lineEnd = (m: number) => 3 + Buffer.byteLength(input.slice(0, m + 1).map((l) => `${l}\n`).join(''));
    let from = 0;
    const padBefore = (at: number): void => {
      let m = from;
      for (let end = lineEnd(m - 1); end + Buffer.byteLength(`${input[m]}\n`) < at - 200; m++) end += Buffer.byteLength(`${input[m]}\n`);
      input[m] = '#';
      input[m] = `#${'-'.repeat(at - lineEnd(m))}`;
      expect(lineEnd(m)).toBe(at);
      bad.delete(m + 1);
      from = m + 2;
    };
    const starts = [...new Set([1, 2, 3].flatMap((t) => {
      const plan = chunkPlan(size, t);
      return [chunkRange(plan, 1)[0], chunkRange(plan, 2)[0], chunkRange(plan, chunkCount(plan) - 1)[0]];
    }))].sort((a, b) => a - b);
    // Starts closer than a padded line to the one before are left alone.
    for (const [i, at] of starts.entries()) if (i === 0 || at - starts[i - 1]! > 400) padBefore(at);
    // The last line fills the file up to `size` bytes.
    const body = input.slice(0, from).map((l) => `${l}\n`).join('');
    input.length = from;
    for (const n of bad) if (n > from) bad.delete(n);
    input.push(`#${'+'.repeat(size - 3 - Buffer.byteLength(body) - 1)}`);
    const text = `\ufeff${input.join('\n')}`; // no final newline
    expect(Buffer.byteLength(text)).toBe(size);
    const file = join(dir, 'threads.epd');
    writeFileSync(file, text);
    const args = ['--features', 'pinned,legalMoveCount'];
    const one = analyze([file, ...args, '--threads', '1']);
    expect(one.code).toBe(3);
    const recs = one.out.trim().split('\n').map((l) => JSON.parse(l));
    const expected = input.map((l, i) => [i + 1, l.replace(/\r$/, '')] as const).filter(([, l]) => l.trim() !== '' && !l.startsWith('#'));
    expect(recs.map((r) => r.line)).toEqual(expected.map(([n]) => n));
    expect(recs.map((r) => r.input)).toEqual(expected.map(([, l]) => l));
    expect(recs.filter((r) => r.error).map((r) => r.line)).toEqual([...bad].sort((a, b) => a - b));
    expect(one.err).toBe(`bitboard-patterns analyze: ${bad.size} of ${recs.length} lines had errors\n`);
    // More threads than cores too: chunks finish out of turn and wait in the workers' output slots.
    for (const t of ['2', '3', '8']) {
      const r = analyze([file, ...args, '--threads', t]);
      expect(r.code).toBe(3);
      expect(Buffer.from(r.out).equals(Buffer.from(one.out))).toBe(true);
    }
    // The file through the worker threads (the native pipeline's reference) and on the JS backend.
    for (const [t, env, backend] of [['1', WORKERS, []], ['3', WORKERS, []], ['2', {}, ['--backend', 'js']]] as const) {
      const r = analyze([file, ...args, '--threads', t, ...backend], undefined, env);
      expect(r.code).toBe(3);
      expect(Buffer.from(r.out).equals(Buffer.from(one.out))).toBe(true);
      expect(r.err).toBe(one.err);
    }
    for (const t of ['1', '2', '3']) {
      const r = analyze(['-', ...args, '--threads', t], text);
      expect(r.code).toBe(3);
      expect(Buffer.from(r.out).equals(Buffer.from(one.out))).toBe(true);
    }
    // --strict: the records up to the first bad line's error record, nothing after it, on any number of threads.
    const firstBad = Math.min(...bad);
    const upTo = one.out.slice(0, one.out.indexOf('\n', one.out.indexOf(`{"line":${firstBad},`)) + 1);
    expect(upTo).toMatch(/"error":/);
    for (const [t, env] of [['1', {}], ['3', {}], ['8', {}], ['2', WORKERS]] as const) {
      const r = analyze([file, ...args, '--strict', '--threads', t], undefined, env);
      expect(r.code).toBe(1);
      expect(r.out).toBe(upTo);
      expect(r.err).toMatch(new RegExp(`line ${firstBad}: .*--strict: stopping`));
    }
  });

  it('malformed lines become error records; the run goes on; exit code 3', () => {
    const input = `${lines[0]}\nnonsense\n${lines[1]}\n4k3/8/8/8/8/8/8/4R1K1 w - - 0 1\n`;
    const r = analyze(['-', '--features', 'checkers,inCheck'], input);
    expect(r.code).toBe(3);
    const recs = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => x.line)).toEqual([1, 2, 3, 4]);
    expect(recs[1]).toEqual({ line: 2, input: 'nonsense', error: expect.stringMatching(/^bad FEN fen:/), field: 'fen' });
    expect(recs[3].field).toBe('sideToMove');
    expect(recs[2]).toEqual({ line: 3, input: lines[1], checkers: expect.any(Array), inCheck: expect.any(Boolean) });
    expect(r.err).toMatch(/2 of 4 lines had errors/);
  });

  it('--strict stops at the first malformed line, exit code 1', () => {
    const r = analyze(['--strict', '--features', 'inCheck'], `${lines[0]}\nnonsense\n${lines[1]}\n`);
    expect(r.code).toBe(1);
    expect(r.out.trim().split('\n').length).toBe(2);
    expect(r.err).toMatch(/line 2: bad FEN fen/);
  });

  it('reads gzip files and stdin alike', () => {
    const gz = join(dir, 'sample.epd.gz');
    writeFileSync(gz, gzipSync(readFileSync(sample)));
    const plain = analyze([sample, '--features', 'pinned']);
    expect(analyze([gz, '--features', 'pinned']).out).toBe(plain.out);
    expect(analyze(['--features', 'pinned'], readFileSync(sample)).out).toBe(plain.out);
  });

  it('never aborts when its worker threads are ended while they load the addon (a tiny input, 40 runs)', () => {
    // With so little input the run ends while the spare workers still load the addon; a Node-API call
    // there that aborts on failure (node-addon-api's) once killed about one run in 40.
    const input = `${lines[0]}\nnonsense\n`;
    for (let i = 0; i < 40; i++) {
      const r = analyze(['-', '--features', 'inCheck'], input);
      if (r.code !== 3) expect({ run: i, code: r.code, err: r.err.slice(0, 300) }).toEqual({ run: i, code: 3, err: '' });
    }
  });

  it('passes over blank and # lines, keeps line numbers; CRLF, a BOM and no final newline are fine', () => {
    const input = `\ufeff${lines[0]}\r\n\r\n# a comment\r\n   \t\n  # indented comment\n${lines[1]}\r\nnonsense\r\n\n${lines[2]}`;
    const r = analyze(['-', '--features', 'inCheck'], input);
    expect(r.code).toBe(3);
    const recs = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => x.line)).toEqual([1, 6, 7, 9]);
    expect(recs[0].input).toBe(lines[0]);
    expect(recs[1].input).toBe(lines[1]);
    expect(recs[2]).toMatchObject({ line: 7, input: 'nonsense', field: 'fen' });
    expect(recs[3].input).toBe(lines[2]);
    expect(r.err).toMatch(/1 of 4 lines had errors/);
    // The same lines with none of the blank or comment lines: the same records, only their numbers differ.
    const clean = analyze(['-', '--features', 'inCheck'], `${lines[0]}\n${lines[1]}\n${lines[2]}\n`);
    expect(clean.code).toBe(0);
    const cleanRecs = clean.out.trim().split('\n').map((l) => JSON.parse(l));
    expect([recs[0], recs[1], recs[3]].map(({ line: _, ...rest }) => rest))
      .toEqual(cleanRecs.map(({ line: _, ...rest }) => rest));
    // A file that ends in an empty line or holds only comments: no error.
    expect(analyze(['-', '--features', 'inCheck'], `${lines[0]}\n\n`).code).toBe(0);
    const onlyComments = analyze(['-'], '# nothing here\n\n');
    expect(onlyComments.code).toBe(0);
    expect(onlyComments.out).toBe('');
  });

  it('a closed output pipe ends the command quietly with exit code 141', () => {
    const big = join(dir, 'big.epd');
    writeFileSync(big, `${lines.join('\n')}\n`.repeat(20));
    const own = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${cli}" analyze "${big}" | head -c 100 >/dev/null`],
      { encoding: 'utf8', env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
    expect(own.stderr).toBe('');
    expect(own.status).toBe(141);
  });

  it('a truncated gzip file: every complete line that decompressed, then one error line, exit code 1', () => {
    const text = `${lines.join('\n')}\n`.repeat(3);
    const gz = gzipSync(Buffer.from(text));
    const cut = join(dir, 'cut.epd.gz');
    writeFileSync(cut, gz.subarray(0, Math.floor(gz.length * 0.7)));
    // Independent truth: what zlib recovers from the same bytes when asked to flush, not to finish.
    const recovered = gunzipSync(gz.subarray(0, Math.floor(gz.length * 0.7)), { finishFlush: constants.Z_SYNC_FLUSH }).toString();
    const complete = recovered.slice(0, recovered.lastIndexOf('\n') + 1).split('\n').length - 1;
    expect(complete).toBeGreaterThan(lines.length);
    const r = analyze([cut, '--features', 'inCheck']);
    expect(r.code).toBe(1);
    const recs = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.length).toBe(complete);
    expect(recs.at(-1).line).toBe(complete);
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/cannot read .*cut\.epd\.gz to its end \(unexpected end of file\)/)]);
  });

  it('records larger than a worker\'s output slot: written in turn all the same, on any number of threads', () => {
    // EPD lines whose operations are a million control characters: each echoes as 6 MB of \\u0001
    // escapes, more than SLOT_BYTES, so its chunk's records take the path that writes in turn.
    const ops = '\x01'.repeat(1_000_000);
    const input = [lines[0]!, `8/8/8/8/8/8/8/K6k w - - ${ops}`, lines[1]!, `8/8/8/8/8/8/8/K6k b - - ${ops}`, lines[2]!];
    expect(Buffer.byteLength(JSON.stringify(input[1]))).toBeGreaterThan(SLOT_BYTES);
    const file = join(dir, 'wide.epd');
    writeFileSync(file, `${input.join('\n')}\n`);
    const one = analyze([file, '--features', 'inCheck,legalMoveCount', '--threads', '1']);
    expect(one.code).toBe(0);
    const recs = one.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => [x.line, x.input])).toEqual(input.map((l, i) => [i + 1, l]));
    expect(recs[1]).toMatchObject({ inCheck: false, legalMoveCount: 3 });
    for (const t of ['2', '3']) {
      const r = analyze([file, '--features', 'inCheck,legalMoveCount', '--threads', t]);
      expect(r.code).toBe(0);
      expect(Buffer.from(r.out).equals(Buffer.from(one.out))).toBe(true);
    }
  });

  it('a line past the length limit becomes an error record holding a short prefix of it', () => {
    const long = join(dir, 'long.epd');
    writeFileSync(long, `${lines[0]}\n${'x'.repeat(3 * 1024 * 1024)}\n${lines[1]}\n${'y'.repeat(2 * 1024 * 1024)}`);
    const r = analyze([long, '--features', 'inCheck']);
    expect(r.code).toBe(3);
    const recs = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((x) => x.line)).toEqual([1, 2, 3, 4]);
    expect(recs[1]).toMatchObject({ field: 'fen', error: expect.stringMatching(/line longer than 1048576 bytes/) });
    expect(recs[1].input.length).toBeLessThan(100);
    expect(recs[3].error).toMatch(/line longer than/);
    expect(recs[2].input).toBe(lines[1]);
  });

  it('a plain file: the native pipeline and the worker threads give the same bytes, exit code and message', () => {
    // The lines the native pipeline hands to the main thread (error records, lines that are not
    // ASCII, over-long lines) and the ones it finishes alone (blank and comment lines, CRLF, a BOM).
    const cases: Record<string, string> = {
      mixed: `\ufeff${lines[0]}\r\n\r\n# a comment\r\n   \t\n  # indented\n${lines[1]}\r\nnonsense\r\n\n${lines[2]}`,
      nonAscii: `${lines[0]}\n8/8/8/8/8/8/8/K6k w - - id "caf\u00e9 \u2654";\n8/8/8/8/8/8/8/K6\u00e9 w - -\n${lines[1]}\n`,
      tooLong: `${lines[0]}\n${'x'.repeat((1 << 20) + 5)}\n${lines[1]}\n${'#'.repeat((1 << 20) + 1)}`,
      empty: '',
      onlyComments: '# nothing here\n\n',
      clean: `${lines.join('\n')}\n`.repeat(3),
    };
    for (const [name, text] of Object.entries(cases)) {
      const file = join(dir, `pipeline-${name}.epd`);
      writeFileSync(file, text);
      for (const extra of [['--threads', '1'], ['--threads', '3', '--format', 'csv'], ['--threads', '2', '--strict']]) {
        const native = analyze([file, ...extra]);
        const workers = analyze([file, ...extra], undefined, WORKERS);
        expect(native.code, `${name} ${extra}`).toBe(workers.code);
        expect(Buffer.from(native.out).equals(Buffer.from(workers.out)), `${name} ${extra}`).toBe(true);
        expect(native.err, `${name} ${extra}`).toBe(workers.err);
      }
    }
    // The ESM build of the command too: the lines handed to the main thread use the CommonJS build
    // of the analysis code there.
    const esm = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'analyze', join(dir, 'pipeline-nonAscii.epd')],
      { env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' } });
    expect(esm.status).toBe(3);
    expect(esm.stdout.equals(Buffer.from(analyze([join(dir, 'pipeline-nonAscii.epd')], undefined, WORKERS).out))).toBe(true);
    // A failed write (a full device): the same message and exit code 1.
    if (existsSync('/dev/full')) {
      const full = (env: Record<string, string>) => {
        const fd = openSync('/dev/full', 'w');
        try {
          const r = spawnSync(process.execPath, [cli, 'analyze', join(dir, 'pipeline-clean.epd')],
            { stdio: ['ignore', fd, 'pipe'], env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '', ...env } });
          return [r.status, r.stderr.toString()];
        } finally {
          closeSync(fd);
        }
      };
      expect(full({})).toEqual([1, 'bitboard-patterns: cannot write the output: ENOSPC: no space left on device, write\n']);
      expect(full(WORKERS)).toEqual(full({}));
    }
    // Truth for the cases above, independent of both pipelines: the lines numbered by hand.
    const mixed = analyze([join(dir, 'pipeline-mixed.epd'), '--features', 'inCheck']);
    expect(mixed.out.trim().split('\n').map((l) => JSON.parse(l).line)).toEqual([1, 6, 7, 9]);
    const nonAscii = analyze([join(dir, 'pipeline-nonAscii.epd'), '--features', 'inCheck']);
    const recs = nonAscii.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.map((r) => [r.line, r.input, r.error === undefined])).toEqual([
      [1, lines[0], true], [2, '8/8/8/8/8/8/8/K6k w - - id "caf\u00e9 \u2654";', true], [3, '8/8/8/8/8/8/8/K6\u00e9 w - -', false], [4, lines[1], true],
    ]);
  });

  it('random files of many chunks: the native pipeline and the worker threads give the same bytes', () => {
    // Seeded: valid, malformed, blank, comment, non-ASCII (valid and not) and CRLF lines mixed at
    // random, some bad lines close together, files of several chunks (see chunkPlan).
    let seed = 0x9e3779b9;
    const rand = (n: number): number => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      return seed % n;
    };
    const kinds = [
      (i: number) => lines[i % lines.length]!,
      (i: number) => `${lines[i % lines.length]!}\r`,
      (i: number) => `nonsense ${i}`,
      () => '',
      () => '  # comment',
      () => '8/8/8/8/8/8/8/K6k w - - id "\u00e9t\u00e9";',
      () => '8/8/8/8/8/8/8/K6\u00e9 w - -',
      () => '8/8/8/8/8/8/8/K6k w - - 0',
    ];
    for (let f = 0; f < 4; f++) {
      const out: string[] = [];
      const badness = [2, 50, 400, 5000][f]!;
      for (let i = 0, bytes = 0; bytes < 150_000 + f * 60_000; i++) {
        const line = rand(badness) === 0 ? kinds[2 + rand(kinds.length - 2)]!(i) : kinds[rand(2)]!(i);
        out.push(line);
        bytes += Buffer.byteLength(line) + 1;
      }
      const file = join(dir, `random-${f}.epd`);
      writeFileSync(file, out.join('\n') + (f % 2 ? '\n' : ''));
      const args = [file, '--threads', String(1 + (f % 3)), ...(f % 2 ? ['--format', 'csv'] : ['--features', 'checkers,legalMoveCount'])];
      const native = analyze(args);
      const workers = analyze(args, undefined, WORKERS);
      expect(native.code, `file ${f}`).toBe(workers.code);
      expect(native.err, `file ${f}`).toBe(workers.err);
      expect(Buffer.from(native.out).equals(Buffer.from(workers.out)), `file ${f}`).toBe(true);
      expect(native.out.split('\n').length - 1 - (f % 2 ? 1 : 0)).toBe(out.filter((l) => l.trim() !== '' && !l.trim().startsWith('#')).length);
    }
  });

  it('bad usage: exit code 2 with a message', () => {
    const bad = analyze(['--features', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown feature "nope"/);
    expect(analyze(['--format', 'xml']).code).toBe(2);
    for (const t of ['0', '257', '1.5', '0x2', '', ' 2']) {
      const r = analyze(['--threads', t]);
      expect(r.code, t).toBe(2);
      expect(r.err).toContain(`--threads must be an integer 1..256, got ${JSON.stringify(t)}`);
    }
    expect(analyze(['--backend', 'gpu']).err).toMatch(/--backend must be native or js, got "gpu"/);
    expect(execFileSync(process.execPath, [cli, 'help', 'analyze']).toString()).toMatch(/usage: bitboard-patterns analyze/);
  });

  it('has no WebAssembly path: --backend wasm is a usage error, BITBOARD_PATTERNS_BACKEND=wasm says so and runs on the addon', () => {
    for (const input of [[sample], [join(root, 'test', 'fixtures', 'pgn', 'quirky.pgn'), '--input', 'pgn']]) {
      const flag = spawnSync(process.execPath, [cli, 'analyze', ...input, '--backend', 'wasm'], { encoding: 'utf8' });
      expect(flag.status).toBe(2);
      expect(flag.stderr).toContain('--backend must be native or js: this command has no WebAssembly path');
      const env = { ...process.env, BITBOARD_PATTERNS_BACKEND: 'wasm' };
      const viaEnv = spawnSync(process.execPath, [cli, 'analyze', ...input, '--features', 'inCheck'], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
      expect(viaEnv.stderr).toContain('BITBOARD_PATTERNS_BACKEND=wasm, but this command has no WebAssembly path');
      const plain = spawnSync(process.execPath, [cli, 'analyze', ...input, '--features', 'inCheck'],
        { env: { ...process.env, BITBOARD_PATTERNS_BACKEND: '' }, encoding: 'utf8', maxBuffer: 1 << 30 });
      expect(viaEnv.stdout.length).toBeGreaterThan(0);
      expect(viaEnv.stdout).toBe(plain.stdout);
    }
  });

  it('without an addon: the JS backend by default; --backend native fails saying why, without a stack trace', () => {
    const env = { ...process.env, BITBOARD_PATTERNS_BACKEND: '', BITBOARD_PATTERNS_ADDON: join(dir, 'none.node') };
    const run = (args: string[]) => spawnSync(process.execPath, [cli, 'analyze', sample, '--features', 'inCheck', ...args], { env, maxBuffer: 1 << 30 });
    const fallback = run([]);
    expect(fallback.status).toBe(0);
    expect(fallback.stdout.toString()).toBe(analyze([sample, '--features', 'inCheck', '--backend', 'js']).out);
    const explicit = run(['--backend', 'native']);
    expect(explicit.status).toBe(1);
    expect(explicit.stdout.length).toBe(0);
    expect(explicit.stderr.toString()).toMatch(/^bitboard-patterns: no native build of bitboard-patterns found.*none\.node/);
    expect(explicit.stderr.toString()).not.toMatch(/\n\s+at /);
  });
});
