#!/usr/bin/env node
// Whether the addon's build has zstd.h (binding.gyp and CMakeLists.txt ask this script):
//   node native/zstd-config.cjs have|include|libs
// `have` prints 1 when zstd.h was found (Debian: libzstd-dev), else 0: the addon is then built
// without zstd, and .zst input is read by the pure-JS decompressor. The header is all the build
// needs: native/addon/zstd.cc opens libzstd.so.1 when the addon loads (dlopen), so a prebuilt addon
// loads on any machine and uses libzstd where it is installed (Debian's libzstd1, which apt and
// systemd depend on). `libs` is what dlopen needs to link (-ldl on Linux).
// BITBOARD_PATTERNS_NO_ZSTD=1 builds without zstd; BITBOARD_PATTERNS_ZSTD_PREFIX=DIR looks in
// DIR/include first.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

function find() {
  if (process.env.BITBOARD_PATTERNS_NO_ZSTD === '1' || process.platform === 'win32') return undefined;
  const prefixes = [process.env.BITBOARD_PATTERNS_ZSTD_PREFIX, '/usr', '/usr/local', '/opt/homebrew'].filter(Boolean);
  for (const prefix of prefixes) {
    const include = join(prefix, 'include');
    if (existsSync(join(include, 'zstd.h'))) return { include, libs: process.platform === 'linux' ? ['-ldl'] : [] };
  }
  return undefined;
}

const found = find();
const what = process.argv[2];
if (what === 'have') process.stdout.write(found ? '1' : '0');
else if (what === 'include') process.stdout.write(found ? found.include : '');
else if (what === 'libs') process.stdout.write(found ? found.libs.join(' ') : '');
else {
  process.stderr.write('usage: node native/zstd-config.cjs have|include|libs\n');
  process.exit(2);
}
