/*
 * Bench driver for Fathom (Debian's libfathom-dev): WDL probes over packed positions (the package's
 * 10-word layout, lib/core/types.ts), timed with a monotonic clock after one untimed pass; the best of
 * <repetitions> passes. Used by bench/sections/syzygy.mjs.
 *
 *   syzygy-fathom <tables dir> <positions.bin> <results.bin> <repetitions>
 * Prints {"largest":..,"n":..,"nsPerProbe":..}; writes one int8 per position (-2..2, -128 failed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <tbprobe.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: %s dir positions results reps\n", argv[0]); return 2; }
  if (!tb_init(argv[1])) { fprintf(stderr, "tb_init failed\n"); return 1; }
  FILE *f = fopen(argv[2], "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  size_t n = (size_t)bytes / 80;
  uint64_t *w = malloc((size_t)bytes);
  if (fread(w, 1, (size_t)bytes, f) != (size_t)bytes) return 1;
  fclose(f);
  int8_t *out = malloc(n);
  int reps = atoi(argv[4]);
  volatile unsigned sink = 0;
  double best = 1e300;
  /* an untimed pass first: Fathom maps each table on its first probe */
  for (int r = -1; r < reps; r++) {
    double t0 = now_ns();
    for (size_t i = 0; i < n; i++) {
      const uint64_t *p = w + 10 * i;
      unsigned ep = (unsigned)((p[8] >> 8) & 255);
      unsigned v = tb_probe_wdl(p[0], p[1], p[7], p[6], p[5], p[4], p[3], p[2], 0, 0, ep == 64 ? 0 : ep, (p[8] & 1) == 0);
      sink += v;
      out[i] = v == TB_RESULT_FAILED ? -128 : (int8_t)((int)v - 2);
    }
    double dt = (now_ns() - t0) / (double)n;
    if (r >= 0 && dt < best) best = dt;
  }
  FILE *o = fopen(argv[3], "wb");
  fwrite(out, 1, n, o);
  fclose(o);
  printf("{\"largest\":%u,\"n\":%zu,\"nsPerProbe\":%.1f}\n", TB_LARGEST, n, best);
  tb_free();
  return 0;
}
