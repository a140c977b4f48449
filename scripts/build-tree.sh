#!/usr/bin/env bash
# Builds the addon with node-gyp in a tree of its own, DIR (build/ is untouched): the package's
# binding.gyp with its source paths made relative to DIR, the Node headers from npm's nodedir setting (node-gyp
# run outside npm does not see it). The caller's environment chooses the variant: CXXFLAGS, CFLAGS
# and LDFLAGS (scripts/build-asan.sh's sanitizers), BITBOARD_PATTERNS_PORTABLE=1 or
# BITBOARD_PATTERNS_NO_BMI2=1 (binding.gyp's variables).
#
#   scripts/build-tree.sh DIR            incremental (a first build configures)
#   scripts/build-tree.sh DIR --rebuild  from scratch
#
# The addon: DIR/build/Release/bitboard_patterns.node. The log: DIR/build.log (its end is printed on
# a failure).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "$1" && cd "$1" && pwd)"
nodedir="$(npm config get nodedir 2>/dev/null || true)"
[[ -n "$nodedir" && "$nodedir" != undefined && "$nodedir" != null ]] && export npm_config_nodedir="$nodedir"
up="$(realpath --relative-to="$out" "$root")"
sed -e "s#\"native/#\"$up/native/#g" -e "s#'native/sources.txt'#'$up/native/sources.txt'#" "$root/binding.gyp" > "$out/binding.gyp.new"
cmp -s "$out/binding.gyp.new" "$out/binding.gyp" 2>/dev/null && rm "$out/binding.gyp.new" || mv "$out/binding.gyp.new" "$out/binding.gyp"
cd "$out"
# binding.gyp asks node for node-addon-api; a DIR outside the package finds it through NODE_PATH.
export NODE_PATH="$root/node_modules${NODE_PATH:+:$NODE_PATH}"
verb=build
[[ "${2:-}" == --rebuild || ! -f build/Makefile ]] && verb=rebuild
"$root/node_modules/.bin/node-gyp" "$verb" --directory "$out" ${npm_config_nodedir:+--nodedir="$npm_config_nodedir"} >"$out/build.log" 2>&1 \
  || { tail -40 "$out/build.log"; exit 1; }
