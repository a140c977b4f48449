#!/usr/bin/env node
/**
 * The screenshot of examples/browser/ in docs/browser.md: the page served locally, opened in headless
 * Chromium (puppeteer-core, /usr/bin/chromium or BITBOARD_PATTERNS_CHROMIUM), perft(5) counted,
 * saved as docs/images/browser-example.png. Needs the browser bundle (npm run build).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { serve } from '../examples/browser/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { server, url } = await serve(0);
const browser = await puppeteer.launch({
  executablePath: process.env.BITBOARD_PATTERNS_CHROMIUM ?? '/usr/bin/chromium',
  headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 600 });
  await page.goto(`${url}?perft=1&depth=5`);
  await page.waitForFunction(() => document.getElementById('perft-result')?.textContent);
  const out = join(root, 'docs', 'images', 'browser-example.png');
  await page.screenshot({ path: out });
  console.log(`${await page.$eval('#perft-result', (e) => e.textContent)}\nwrote ${out}`);
} finally {
  await browser.close();
  server.close();
}
