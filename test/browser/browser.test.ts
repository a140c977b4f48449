/**
 * The browser bundle (dist/browser/index.js, scripts/build-browser.mjs) in a real browser: headless
 * Chromium (Debian's /usr/bin/chromium, driven by puppeteer-core) loads a page from a local http
 * server that imports the bundle, and the page's answers are held to Node's: perft against the Chess
 * Programming Wiki's Perft Results, pins, a PGN read from a fetched ReadableStream and from a Blob,
 * a Syzygy probe over fetched table bytes, an SVG diagram, all against this process's answers.
 *
 * Skipped, saying why, when Chromium or the bundle is missing; BITBOARD_PATTERNS_REQUIRE_BROWSER=1
 * (CI) makes that a failure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/backends/native.js';
import { parsePgn } from '../../lib/games/pgn.js';
import { SyzygyTablebase } from '../../lib/tablebases/syzygy.js';
import { toSvg } from '../../lib/diagram/diagram.js';
import { jsApi } from '../support/backends.js';

const CHROMIUM = process.env.BITBOARD_PATTERNS_CHROMIUM ?? '/usr/bin/chromium';
const BUNDLE = join(packageRoot, 'dist', 'browser', 'index.js');
const missing = [!existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM}`, !existsSync(BUNDLE) && `no bundle at ${BUNDLE} (npm run build:wasm && npm run build)`]
  .filter(Boolean) as string[];
if (missing.length && process.env.BITBOARD_PATTERNS_REQUIRE_BROWSER === '1') {
  throw new Error(`BITBOARD_PATTERNS_REQUIRE_BROWSER=1, but ${missing.join('; ')}`);
}
if (missing.length) console.warn(`test/browser/browser.test.ts skipped: ${missing.join('; ')}`);

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
// A knight pinned on a diagonal (Bb4-Nd2-Ke1) and a bishop on a file (Re8-Be2-Ke1).
const PINS = '4r2k/8/8/8/1b6/8/3NB3/4K3 w - - 0 1';
const KQVK = ['8/8/8/8/8/2k5/8/KQ6 w - - 0 1', '8/8/8/8/8/2k5/8/KQ6 b - - 0 1', '8/8/8/8/3k4/8/8/KQ6 w - - 0 1'];
const SVG_PINS = (1n << 11n) | (1n << 12n);  // d2, e2


/** What the page computes, as JSON (bigints as decimal strings). */
const PAGE_SCRIPT = `
  const m = await import('/bundle.js');
  const fen = (f) => m.parseFen(f);
  const pgnText = await (await fetch('/fixtures/pgn/quirky.pgn')).text();
  const fromStream = [];
  for await (const g of m.readPgn((await fetch('/fixtures/pgn/quirky.pgn')).body)) fromStream.push(g.moves);
  const fromBlob = [];
  for await (const g of m.readPgn(new Blob([pgnText]))) fromBlob.push(g.moves);
  const files = {};
  for (const name of ['KQvK.rtbw', 'KQvK.rtbz']) {
    files[name] = new Uint8Array(await (await fetch('/fixtures/syzygy/' + name)).arrayBuffer());
  }
  const tb = m.SyzygyTablebase.fromBytes(files);
  return JSON.stringify({
    backend: m.backend, cpuPath: m.cpuPath,
    perft: [m.perft(fen(m.STARTING_FEN), 4), m.perft(fen(${JSON.stringify(KIWIPETE)}), 3)],
    pins: [m.pinnedPieces(fen(${JSON.stringify(PINS)}), 0), m.pinners(fen(${JSON.stringify(PINS)}), 0)],
    fromStream, fromBlob, parsed: m.parsePgn(pgnText).map((g) => g.moves),
    syzygy: ${JSON.stringify(KQVK)}.map((f) => [tb.probeWdl(fen(f)), tb.probeDtz(fen(f))]), syzygyBackend: tb.backend,
    svg: m.toSvg(fen(${JSON.stringify(PINS)}), { highlight: [{ squares: ${SVG_PINS}n, color: '#f008' }], arrows: [{ from: 0, to: 32, color: 'red' }], coordinates: true }),
    nodeImports: document.querySelectorAll('script').length,
  }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
`;

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.pgn': 'text/plain' };

describe.skipIf(missing.length > 0)('the browser bundle in headless Chromium', () => {
  let server: Server;
  let base = '';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let file: string | undefined;
      if (url.pathname === '/bundle.js') file = BUNDLE;
      else if (url.pathname.startsWith('/fixtures/')) file = join(packageRoot, 'test', normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bitboard-patterns</title>');
      } else if (file && existsSync(file)) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const puppeteer = (await import('puppeteer-core')).default;
    // The browser runs the bundle, not the addon: none of the sanitizer build's preload and options.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(LD_PRELOAD|[A-Z]+SAN_OPTIONS)$/.test(k)));
    browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, env, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('holds no import of a Node module', () => {
    const text = readFileSync(BUNDLE, 'utf8');
    expect(text).not.toMatch(/\bfrom\s*["'](node:)?(fs|path|os|util|stream|worker_threads|child_process|module|url)["']/);
    expect(text).not.toMatch(/\bimport\(["']node:/);
    expect(text).not.toMatch(/\brequire\(["']/);
  });

  it('answers perft, pins, PGN, Syzygy and SVG as Node does, on the wasm backend', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`${base}/`);
    const got = JSON.parse(await page.evaluate(`(async () => { ${PAGE_SCRIPT} })()`));
    expect(errors).toEqual([]);
    expect(got.backend).toBe('wasm');
    expect(got.cpuPath).toBe('wasm32+simd128');
    // Chess Programming Wiki, Perft Results: initial position depth 4 = 197,281; Kiwipete depth 3 = 97,862.
    expect(got.perft).toEqual([197281, 97862]);
    const pins = jsApi.parseFen(PINS);
    expect(got.pins).toEqual([jsApi.pinnedPieces(pins, 0).toString(), jsApi.pinners(pins, 0).toString()]);
    expect(got.pins).toEqual([SVG_PINS.toString(), ((1n << 25n) | (1n << 60n)).toString()]);  // pinned d2 e2, pinners b4 e8
    const pgn = readFileSync(join(packageRoot, 'test', 'fixtures', 'pgn', 'quirky.pgn'));
    const nodeGames = parsePgn(pgn, { backend: 'js' }).map((g) => g.moves);
    expect(got.parsed).toEqual(nodeGames);
    expect(got.fromStream).toEqual(nodeGames);
    expect(got.fromBlob).toEqual(nodeGames);
    const tb = SyzygyTablebase.open(join(packageRoot, 'test', 'fixtures', 'syzygy'), { backend: 'js' });
    expect(got.syzygyBackend).toBe('wasm');
    expect(got.syzygy).toEqual(KQVK.map((f) => [tb.probeWdl(jsApi.parseFen(f)), tb.probeDtz(jsApi.parseFen(f))]));
    expect(got.svg).toBe(toSvg(pins, { highlight: [{ squares: SVG_PINS, color: '#f008' }], arrows: [{ from: 0, to: 32, color: 'red' }], coordinates: true }));
    expect(got.svg).toMatch(/^<svg/);
    await page.close();
  }, 60_000);
});
