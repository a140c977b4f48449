/**
 * perft in headless Chromium on the wasm backend, through the example page (examples/browser/,
 * served locally): the page counts with its own button and prints the count and the milliseconds
 * (performance.now() in the page), which is what is read here. One page per position; the first
 * count is the warm-up. Chromium: /usr/bin/chromium or BITBOARD_PATTERNS_CHROMIUM (puppeteer-core
 * drives it; nothing is downloaded).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const chromium = process.env.BITBOARD_PATTERNS_CHROMIUM ?? '/usr/bin/chromium';

/** A started browser with `rate(fen, depth, nodes, runs)` -> ns per node samples; or a string saying why not. */
export async function startBrowserPerft() {
  if (!existsSync(chromium)) return `no Chromium at ${chromium} (Debian package chromium)`;
  if (!existsSync(join(here, '..', 'dist', 'browser', 'index.js'))) return 'no browser bundle (npm run build:wasm && npm run build)';
  const { serve } = await import('../examples/browser/serve.mjs');
  const puppeteer = (await import('puppeteer-core')).default;
  const { server, url } = await serve(0);
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const version = await browser.version();
  return {
    version,
    async rate(fen, depth, nodes, runs) {
      const page = await browser.newPage();
      try {
        await page.goto(`${url}?fen=${encodeURIComponent(fen)}&depth=${depth}`);
        const samples = [];
        for (let i = 0; i < runs + 1; i++) {
          await page.$eval('#perft-result', (e) => { e.textContent = ''; });
          await page.click('#run');
          await page.waitForFunction(() => document.getElementById('perft-result').textContent !== '');
          const [got, ms] = await page.$eval('#perft-result', (e) => [Number(e.dataset.nodes), Number(e.dataset.ms)]);
          if (got !== nodes) throw new Error(`Chromium perft: expected ${nodes} nodes, got ${got}`);
          if (i > 0) samples.push((ms * 1e6) / nodes);
        }
        return samples;
      } finally {
        await page.close();
      }
    },
    async stop() {
      await browser.close();
      server.close();
    },
  };
}
