#!/usr/bin/env bash
# Builds the addon with AddressSanitizer + UndefinedBehaviorSanitizer into build-asan/ (its own
# node-gyp tree; build/ is untouched), then, with a command, runs it under the sanitizers:
#
#   scripts/build-asan.sh                      build only (incremental; --rebuild to start over)
#   scripts/build-asan.sh run <cmd...>         run <cmd> with the sanitized addon loaded
#   scripts/build-asan.sh test [files...]      vitest (all files, or these) on the sanitized addon
#   scripts/build-asan.sh fuzz [fuzz args...]  the fuzz harness on the sanitized addon
#
# Node itself is not instrumented, so libasan is preloaded (LD_PRELOAD) and the addon is chosen with
# BITBOARD_PATTERNS_ADDON. detect_leaks=0: V8 keeps memory until exit by design.
# allocator_may_return_null=1: a huge allocation fails as in a normal run (V8 throws a RangeError)
# instead of ending the process. quarantine_size_mb=32 and malloc_context_size=10 (defaults 256 and
# 30): every node process of the CLI tests runs under the preloaded sanitizer, and a smaller
# quarantine and shorter allocation stacks make those runs faster; freed memory still waits 32 MB
# of later frees before reuse, and ten frames name the allocating call. Any sanitizer report aborts the process that made it (halt_on_error, -fno-sanitize-recover) and the reports are also
# written to files (log_path); the run fails when one appeared, even if a test runner swallowed the
# child's crash.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/build-asan"
addon="$out/build/Release/bitboard_patterns.node"
# -g1: line tables only (file:line in reports) compile about a quarter faster than full -g.
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g1 -O1"
# The kernels are the costliest sources to compile under the sanitizers, and a run uses one table.
# The build has the portable and the SSE4.1+POPCNT tables, not the BMI2 one (the same x86.cc with
# PEXT slider lookups), so on every x86 CPU the sanitized runs use x86.cc's code.
export BITBOARD_PATTERNS_NO_BMI2=1

# In its own tree (scripts/build-tree.sh), with the sanitizer flags.
build() {
  CXXFLAGS="$flags" CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" "$root/scripts/build-tree.sh" "$out" "$@"
  echo "sanitized addon: $addon"
}

run() {
  [[ -f "$addon" ]] || build
  local logs="$out/reports"
  rm -rf "$logs" && mkdir -p "$logs"
  local status=0
  LD_PRELOAD="$(g++ -print-file-name=libasan.so)" \
  ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:halt_on_error=1:abort_on_error=1:quarantine_size_mb=32:malloc_context_size=10:log_path=$logs/asan:${ASAN_OPTIONS:-}" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan:${UBSAN_OPTIONS:-}" \
  BITBOARD_PATTERNS_ADDON="$addon" BITBOARD_PATTERNS_BACKEND="" \
    "$@" || status=$?
  if compgen -G "$logs/*" >/dev/null; then
    echo "sanitizer reports:" >&2
    for f in "$logs"/*; do echo "== $f" >&2; head -60 "$f" >&2; done
    exit 1
  fi
  exit "$status"
}

case "${1:-}" in
  run) shift; run "$@" ;;
  test) shift; cd "$root"; run "$root/node_modules/.bin/vitest" run "$@" ;;
  fuzz) shift; cd "$root"; run node "$root/scripts/fuzz.mjs" "$@" ;;
  *) build "$@" ;;
esac
