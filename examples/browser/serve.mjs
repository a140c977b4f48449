#!/usr/bin/env node
// Serves the example page: node examples/browser/serve.mjs [port], then open http://localhost:8080/.
// /bundle.js is the package's browser bundle (dist/browser/index.js, made by npm run build).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const files = {
  '/': [join(here, 'index.html'), 'text/html'],
  '/index.html': [join(here, 'index.html'), 'text/html'],
  '/main.js': [join(here, 'main.js'), 'text/javascript'],
  '/bundle.js': [join(here, '..', '..', 'dist', 'browser', 'index.js'), 'text/javascript'],
};

/** Starts the server on `port` (0: any free one); resolves with its URL. */
export function serve(port = 8080) {
  const server = createServer((req, res) => {
    const f = files[new URL(req.url ?? '/', 'http://localhost').pathname];
    if (!f) return res.writeHead(404).end();
    try {
      res.writeHead(200, { 'content-type': f[1] }).end(readFileSync(f[0]));
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serve(Number(process.argv[2] ?? 8080));
  console.log(`bitboard-patterns example: ${url}`);
}
