#!/usr/bin/env bash
# The package as a user installs it: `npm pack` (prepack builds the linux-x64 prebuild, prepare builds
# dist/), then the tarball installed into empty projects three ways:
#   a) --ignore-scripts: the native backend loads from the prebuild, no compiler involved;
#   b) the prebuild removed, --ignore-scripts: the wasm backend (the tarball's wasm/), with one
#      warning naming the command that builds the addon from the user's project (npm rebuild
#      bitboard-patterns); b2) the wasm module removed too: the JS backend, the same warning;
#   c) a normal install: native.
# Each case imports the package as ESM and as CommonJS and type-checks a small TypeScript consumer.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bbp-package-XXXXXX")
trap 'rm -rf "$work"' EXIT
tsc="$repo/node_modules/.bin/tsc"
# A Node library's users type-check with Node's types; the version the repository itself pins.
types_node=$(node -p "require('$repo/package.json').devDependencies['@types/node']")

echo "-- npm pack"
(cd "$repo" && npm pack --silent --pack-destination "$work" >/dev/null)
tarball=$(ls "$work"/bitboard-patterns-*.tgz)
listing=$(tar tzf "$tarball")
for f in package/LICENSE package/README.md package/package.json package/dist/index.js package/dist/index.cjs \
         package/dist/index.d.ts package/dist/cli.cjs package/binding.gyp package/CMakeLists.txt \
         package/native/core/movegen.h package/native/addon/addon.cc package/wasm/bitboard_patterns.wasm \
         package/native/wasm/bbp_wasm.cc package/dist/browser/index.js package/dist/wasm-entry.js; do
  grep -qx "$f" <<<"$listing" || { echo "the tarball lacks $f"; exit 1; }
done
grep -qE '^package/prebuilds/linux-x64/.*\.node$' <<<"$listing" || { echo "the tarball has no linux-x64 prebuild"; exit 1; }
if grep -qE '^package/(test|bench|lib|build)/' <<<"$listing"; then echo "the tarball ships development folders"; exit 1; fi
echo "   $(wc -l <<<"$listing") files, $(du -k "$tarball" | cut -f1) KiB"

# A tarball without the prebuild (case b).
mkdir "$work/strip"
tar xzf "$tarball" -C "$work/strip"
rm -rf "$work/strip/package/prebuilds"
(cd "$work/strip" && tar czf "$work/no-prebuild.tgz" package)
rm -rf "$work/strip/package/wasm"
(cd "$work/strip" && tar czf "$work/no-prebuild-no-wasm.tgz" package)

consumer() { # dir tarball expected-backend npm-install-flags...
  local dir=$1 tgz=$2 expected=$3; shift 3
  mkdir -p "$dir"
  (cd "$dir" && printf '{ "name": "consumer", "version": "1.0.0", "private": true }\n' > package.json \
    && npm install --silent --no-audit --no-fund "$@" "$tgz" "@types/node@$types_node" >/dev/null 2>"$dir/npm-install.log") \
    || { cat "$dir/npm-install.log"; return 1; }
  cat > "$dir/esm.mjs" <<'JS'
import { backend, kingAttacks, parseFen, pinnedPieces, WHITE } from 'bitboard-patterns';
import * as js from 'bitboard-patterns/js';
const pos = parseFen('k3r3/8/8/8/8/8/4R3/4K3 w - - 0 1');
if (kingAttacks(14) !== 0xe0a0e0n || js.kingAttacks(14) !== 0xe0a0e0n) throw new Error('kingAttacks(g2) is wrong');
if (pinnedPieces(pos, WHITE) !== 0x1000n || 0x1000n !== js.pinnedPieces(js.parseFen('k3r3/8/8/8/8/8/4R3/4K3 w - - 0 1'), WHITE)) throw new Error('backends disagree');
console.log(`esm ${backend}`);
JS
  cat > "$dir/cjs.cjs" <<'JS'
const { backend, knightAttacks } = require('bitboard-patterns');
if (knightAttacks(0) !== 0x20400n) throw new Error('knightAttacks(a1) is wrong');
console.log(`cjs ${backend}`);
JS
  cat > "$dir/consumer.mts" <<'TS'
import { kingAttacks, parseFen, type Bitboard, type Position } from 'bitboard-patterns';
const pos: Position = parseFen('8/8/8/8/8/8/8/K6k w - - 0 1');
const attacks: Bitboard = kingAttacks(0);
export const n: number = Number(attacks & 3n) + pos.sideToMove;
TS
  cat > "$dir/consumer.cts" <<'TS'
import bbp = require('bitboard-patterns');
export const a: bigint = bbp.knightAttacks(0);
TS
  cat > "$dir/tsconfig.json" <<'JSON'
{ "compilerOptions": { "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "strict": true,
  "noEmit": true, "skipLibCheck": false, "types": ["node"] }, "files": ["consumer.mts", "consumer.cts"] }
JSON
  local esm cjs
  esm=$(cd "$dir" && node esm.mjs 2>"$dir/esm.err") || true
  cjs=$(cd "$dir" && node cjs.cjs 2>"$dir/cjs.err") || true
  [ "$esm" = "esm $expected" ] || { echo "ESM import gave '$esm', expected the $expected backend"; cat "$dir/esm.err"; return 1; }
  [ "$cjs" = "cjs $expected" ] || { echo "require gave '$cjs', expected the $expected backend"; cat "$dir/cjs.err"; return 1; }
  (cd "$dir" && "$tsc" -p tsconfig.json) || { echo "the TypeScript consumer does not type-check"; return 1; }
  echo "   ESM and CommonJS: $expected backend; the TypeScript consumer type-checks"
}

echo "-- a) install --ignore-scripts: native from the prebuild"
consumer "$work/a" "$tarball" native --ignore-scripts
[ ! -e "$work/a/node_modules/bitboard-patterns/build" ] || { echo "   an --ignore-scripts install built the addon"; exit 1; }
[ ! -s "$work/a/esm.err" ] || { echo "   unexpected stderr:"; cat "$work/a/esm.err"; exit 1; }

fallback() { # case backend warning-text
  for f in esm cjs; do
    n=$(grep -c "$3" "$work/$1/$f.err" || true)
    [ "$n" = 1 ] || { echo "   $f: expected one fallback warning, got $n:"; cat "$work/$1/$f.err"; exit 1; }
    grep -q 'npm rebuild bitboard-patterns' "$work/$1/$f.err" || { echo "   $f: the warning does not name npm rebuild:"; cat "$work/$1/$f.err"; exit 1; }
  done
  echo "   warning: $(grep -m1 "$3" "$work/$1/esm.err" | cut -c1-160)..."
}

echo "-- b) no prebuild, --ignore-scripts: wasm with one warning naming npm rebuild"
consumer "$work/b" "$work/no-prebuild.tgz" wasm --ignore-scripts
fallback b wasm 'using the wasm backend'

echo "-- b2) no prebuild and no wasm module, --ignore-scripts: JS with one warning naming npm rebuild"
consumer "$work/b2" "$work/no-prebuild-no-wasm.tgz" js --ignore-scripts
fallback b2 js 'using the JS backend'

echo "-- c) normal install: native"
consumer "$work/c" "$tarball" native
echo "package checks passed"
