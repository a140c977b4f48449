/**
 * The worker side of the analyze command on FEN / EPD lines: the job handler each worker thread
 * runs (dist/analyze-worker.cjs loads it), and the lines the native pipeline hands to the main
 * thread (lineRecords: the main thread loads dist/analyze-worker.cjs for them).
 */
import { openSync, readSync } from 'node:fs';
import { analyzeTextChunk, errorRecord } from '../batch/batch.js';
import type { ChunkScratch, RecordFormat } from '../batch/batch.js';
import { PACKED_POSITION_WORDS } from '../core/types.js';
import type { Backend } from '../backends/contract.js';
import { lineAt, parseLine } from '../core/lines.js';
import { FenError } from '../core/position.js';
import type { SyzygyTablebase } from '../tablebases/syzygy.js';
import { writeAllSync } from './output.js';
import {
  BYTES, CHUNK_BYTES, COUNTED, EPIPE, ERRORS, LINES, LINE_BASE, MAX_LINE_BYTES, NEXT, PARK_BYTES, PARK_ERRORS, PARK_FIELDS,
  PARK_LENGTH, PARK_LINES, PARK_SLOT, PARK_STATE, RUNNING, SLOTS_PER_THREAD, STOP, STRICT, TURN, WORKER_IDS, WRITE_FAILED,
  chunkCount, chunkRange,
} from './analyze-control.js';
import type { Job, JobResult, WorkerData } from './analyze-control.js';

// ---- The worker threads ----
//
// Every chunk k (a byte range of the input file the worker reads itself, or a piece the main thread
// read from a stream) goes through three steps on one worker: its lines are split (parseText) and the
// worker waits for chunk k - 1 to publish the number of the line after it (COUNTED, LINE_BASE), then
// publishes its own; it analyses and formats its records into one of its output slots (shared
// memory); then the records are written to stdout when it is chunk k's turn (TURN = k) and the turn
// goes on to k + 1. A worker that finishes before its turn does not wait for it: it parks the chunk
// (the slot, the length and the counts, in entry k % entries of the parking ring) and goes on to its
// next chunk, and whichever worker writes chunk k - 1 writes chunk k next, and so on down the chain
// (drain). A worker waits only when both its slots hold parked chunks, or for the line count of the
// chunk before its own. Chunks are taken in order, and the oldest unwritten chunk never waits on a
// later one, so the chain always moves; output is in input order, and no record passes through the
// main thread.

const READ_STEP = 1 << 16;
const EMPTY = new Uint8Array(0);
const STOPPED = Symbol('stopped');

/** Until `cell[at]` holds `k` (true) or the run stops (false). */
function waitFor(control: Int32Array, cell: Int32Array, at: number, k: number): boolean {
  for (;;) {
    if (Atomics.load(control, STOP) !== RUNNING) return false;
    const v = Atomics.load(cell, at);
    if (v === k) return true;
    // The timeout only bounds a missed wake-up of STOP; every store of `cell[at]` notifies.
    Atomics.wait(cell, at, v, 100);
  }
}

/**
 * Output slot states, and a parking ring entry's state once a worker has claimed it (otherwise 0, or
 * k + 1 while chunk k is parked there: a claim expects exactly that, so a stale entry is never taken).
 */
const FREE = 0, IN_USE = 1, CLAIMED = -1;

function stopRun(control: Int32Array, why: number, slotState?: Int32Array): void {
  Atomics.compareExchange(control, STOP, RUNNING, why);
  Atomics.notify(control, COUNTED);
  Atomics.notify(control, TURN);
  if (slotState) for (let i = 0; i < slotState.length; i++) Atomics.notify(slotState, i);
}

/** A chunk's records (see chunkRecords); firstError and firstErrorEnd come with the first error record. */
interface ChunkRecords { out: Uint8Array; lines: number; errors: number; firstError?: string; firstErrorEnd?: number }

/** The error record of line `line`, longer than MAX_LINE_BYTES: `tooLong` holds its first 64 bytes. */
function tooLongError(line: number, tooLong: string, ids: readonly number[], format: RecordFormat, syzygy: boolean): { record: string; message: string } {
  const error = new FenError('fen', tooLong, `line longer than ${MAX_LINE_BYTES} bytes`);
  return { record: errorRecord(line, `${tooLong}...`, error, ids, format, syzygy), message: `line ${line}: ${error.message}` };
}

/**
 * The records of a chunk of FEN / EPD lines, a worker thread's unit of work: analyzeTextChunk, then
 * an error record for `tooLong`, the chunk's last line when it is longer than MAX_LINE_BYTES (its
 * first 64 bytes). `firstLine` as analyzeTextChunk takes it.
 */
function chunkRecords(backend: Backend, text: Uint8Array, firstLine: number | ((lines: number) => number),
  tooLong: string | undefined, ids: readonly number[], format: RecordFormat, tb?: SyzygyTablebase, scratch?: ChunkScratch,
  chess960 = false): ChunkRecords {
  let first = 0, textLines = 0;
  const number = (lines: number): number => {
    textLines = lines;
    return (first = typeof firstLine === 'number' ? firstLine : firstLine(lines));
  };
  let { out, lines, errors, firstError, firstErrorEnd } = analyzeTextChunk(backend, text, number, ids, format, true, tb, scratch, chess960);
  if (tooLong !== undefined) {
    // The chunk's last line: its number follows the text's lines (skipped ones included).
    const { record, message } = tooLongError(first + textLines, tooLong, ids, format, tb !== undefined);
    const bytes = Buffer.from(record);
    out = out.length ? Buffer.concat([out, bytes]) : bytes;
    lines += 1;
    errors += 1;
    if (firstError === undefined) { firstError = message; firstErrorEnd = out.length; }
  }
  return { out, lines, errors, ...(firstError !== undefined && { firstError, firstErrorEnd }) };
}

/** The main thread's answer to the native pipeline about some lines (see lineRecords). */
export interface LineRecords { words: BigUint64Array; ok: Uint8Array; records: Uint8Array; ends: Uint32Array; firstError?: string }

/**
 * The lines of a chunk the analyze command's native pipeline (native/addon/analyze_file.cc) cannot
 * finish alone, done as the worker threads do them (parseText's JS step, then analyzeTextChunk's
 * and chunkRecords' error records): line i of `text` (text[starts[i], starts[i + 1] - 1), numbered
 * lineNumbers[i]) is either parsed (its packed words, ok[i] = 1) or gets its error record; then
 * `tooLong`'s record, numbered lineNumbers[count], when the chunk ends in a line over the limit.
 * records: those records concatenated, record i ending at ends[i]; firstError: "line N: message" of
 * the first. `chess960`: castling fields read as X-FEN (--chess960).
 */
export function lineRecords(backend: Backend, text: Uint8Array, starts: Uint32Array, lineNumbers: Float64Array,
  tooLong: string | undefined, ids: readonly number[], format: RecordFormat, chess960 = false): LineRecords {
  const count = starts.length - 1;
  const words = new BigUint64Array(count * PACKED_POSITION_WORDS);
  const ok = new Uint8Array(count);
  const ends = new Uint32Array(count + (tooLong === undefined ? 0 : 1));
  const parts: string[] = [];
  let size = 0;
  let firstError: string | undefined;
  const add = (record: string, message: string): void => {
    parts.push(record);
    size += Buffer.byteLength(record);
    firstError ??= message;
  };
  for (let i = 0; i < count; i++) {
    const line = lineAt(text, starts, i);
    const r = parseLine(line, true, backend.checkers, chess960);
    if (r instanceof FenError) add(errorRecord(lineNumbers[i]!, line, r, ids, format), `line ${lineNumbers[i]}: ${r.message}`);
    else { words.set(r, i * PACKED_POSITION_WORDS); ok[i] = 1; }
    ends[i] = size;
  }
  if (tooLong !== undefined) {
    const { record, message } = tooLongError(lineNumbers[count]!, tooLong, ids, format, false);
    add(record, message);
    ends[count] = size;
  }
  return { words, ok, records: Buffer.from(parts.join('')), ends, ...(firstError !== undefined && { firstError }) };
}

/**
 * The worker side of the analyze command (dist/analyze-worker.cjs re-exports it): returns the job
 * handler of one worker thread. `tb`: the worker's own tablebase when `data.syzygy` names any.
 */
export function analyzeWorker(data: WorkerData, backend: Backend, tb?: SyzygyTablebase): (job: Job) => JobResult {
  const control = new Int32Array(data.control);
  const totals = new BigInt64Array(data.totals);
  const fd = data.file === undefined ? -1 : openSync(data.file, 'r');
  // One buffer for the range being read: a chunk, the rest of its last line and a step of slack.
  const buffer = fd >= 0 ? Buffer.allocUnsafeSlow(CHUNK_BYTES + MAX_LINE_BYTES + READ_STEP + 2) : undefined;
  // A chunk's feature planes and records, reused from chunk to chunk: fresh memory for every chunk
  // costs page faults, and more of them the more threads allocate at once.
  const scratch: ChunkScratch = { records: EMPTY, planes: [] };
  const slots = data.slots.map((b) => new Uint8Array(b));
  const slotState = new Int32Array(data.slotState);
  const park = new Int32Array(data.park);
  const entries = park.length / PARK_FIELDS;
  const first = Atomics.add(control, WORKER_IDS, 1) * SLOTS_PER_THREAD;
  let nextSlot = 0;

  /** This worker's next output slot, once the chunk parked in it has been written. */
  function takeSlot(): number {
    const slot = first + nextSlot;
    nextSlot = (nextSlot + 1) % SLOTS_PER_THREAD;
    if (!waitFor(control, slotState, slot, FREE)) throw STOPPED;
    Atomics.store(slotState, slot, IN_USE);
    return slot;
  }

  function release(slot: number): void {
    Atomics.store(slotState, slot, FREE);
    Atomics.notify(slotState, slot);
  }

  /** Hands the turn on from chunk k to k + 1. */
  function passTurn(k: number): void {
    Atomics.store(control, TURN, k + 1);
    Atomics.notify(control, TURN);
  }

  /** Writes bytes to stdout: undefined, or (a failed write) why the run stopped. */
  function writeOut(bytes: Uint8Array): JobResult | undefined {
    try {
      writeAllSync(1, bytes);
      return undefined;
    } catch (e) {
      const epipe = (e as NodeJS.ErrnoException).code === 'EPIPE';
      stopRun(control, epipe ? EPIPE : WRITE_FAILED, slotState);
      return { stop: epipe ? EPIPE : WRITE_FAILED, message: (e as Error).message };
    }
  }

  /** Writes chunk k's records (it is its turn), adds them to the totals, frees its slot and hands the turn on. */
  function writeTurn(k: number, slot: number, bytes: Uint8Array, lines: number, errors: number, textBytes: number): JobResult {
    const failed = writeOut(bytes);
    if (!failed) {
      Atomics.add(totals, LINES, BigInt(lines));
      Atomics.add(totals, ERRORS, BigInt(errors));
      Atomics.add(totals, BYTES, BigInt(textBytes));
    }
    release(slot);
    passTurn(k);
    return failed ?? {};
  }

  /**
   * Writes parked chunks while the one whose turn it is is parked: claims its ring entry (one
   * worker wins) and writes it.
   */
  function drain(): JobResult {
    for (;;) {
      if (Atomics.load(control, STOP) !== RUNNING) return {};
      const j = Atomics.load(control, TURN);
      const at = (j % entries) * PARK_FIELDS;
      if (Atomics.compareExchange(park, at + PARK_STATE, j + 1, CLAIMED) !== j + 1) return {};
      const slot = park[at + PARK_SLOT]!;
      const r = writeTurn(j, slot, slots[slot]!.subarray(0, park[at + PARK_LENGTH]!), park[at + PARK_LINES]!,
        park[at + PARK_ERRORS]!, park[at + PARK_BYTES]!);
      if (r.stop !== undefined) return r;
    }
  }

  /** Chunk k's lines: the text, and a last line too long to analyse (its first 64 bytes). */
  function runChunk(k: number, text: Uint8Array, tooLong: string | undefined): JobResult {
    const number = (lines: number): number => {
      if (!waitFor(control, control, COUNTED, k)) throw STOPPED;
      const base = totals[LINE_BASE]!;
      totals[LINE_BASE] = base + BigInt(lines + (tooLong === undefined ? 0 : 1));
      Atomics.store(control, COUNTED, k + 1);
      Atomics.notify(control, COUNTED);
      return Number(base) + 1;
    };
    let slot: number;
    let r: ChunkRecords;
    try {
      slot = takeSlot();
      scratch.records = slots[slot]!;
      r = chunkRecords(backend, text, number, tooLong, data.ids, data.format, tb, scratch, data.chess960 === true);
    } catch (e) {
      if (e === STOPPED) return {};
      throw e;
    }
    const { out, lines, errors, firstError, firstErrorEnd } = r;
    const own = slots[slot]!;
    if (!(data.strict && errors > 0) && (out.buffer === own.buffer || out.length <= own.length)) {
      // Park the chunk: its records in the slot (error records were made apart: copied in).
      if (out.buffer !== own.buffer) own.set(out);
      const at = (k % entries) * PARK_FIELDS;
      park[at + PARK_SLOT] = slot;
      park[at + PARK_LENGTH] = out.length;
      park[at + PARK_LINES] = lines;
      park[at + PARK_ERRORS] = errors;
      park[at + PARK_BYTES] = text.length;
      Atomics.store(park, at + PARK_STATE, k + 1);
      return drain();
    }
    // Records too large for a slot, or --strict and a bad line: written by this worker in its turn.
    if (!waitFor(control, control, TURN, k)) return {};
    if (data.strict && errors > 0) {
      // The records up to and including the first error record; the run stops before the turn moves on.
      const failed = writeOut(out.subarray(0, firstErrorEnd));
      if (failed) return failed;
      Atomics.add(totals, ERRORS, 1n);
      stopRun(control, STRICT, slotState);
      return { stop: STRICT, message: firstError };
    }
    const w = writeTurn(k, slot, out, lines, errors, text.length);
    return w.stop !== undefined ? w : drain();
  }

  /** Reads `length` bytes at `position` into buffer[at..] (fewer at the end of the file). */
  function read(at: number, length: number, position: number): number {
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buffer!, at + got, length - got, position + got);
      if (n === 0) break;
      got += n;
    }
    return got;
  }

  /**
   * Chunk k of the file: the lines that start in its byte range [lo, hi) (see chunkRange).
   * The first of them starts after the first line end at or after the range's first byte - 1; the
   * last one may run on past the range (read on to its end, or to MAX_LINE_BYTES + 1 of it).
   */
  function rangeChunk(k: number): JobResult {
    const size = data.size!;
    const [lo, hi] = chunkRange(data.plan!, k);
    const from = k === 0 ? 0 : lo - 1;
    const buf = buffer!;
    let have = read(0, hi - from, from);
    let start: number;
    if (k === 0) start = have >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    else {
      const nl = buf.indexOf(10);
      if (nl < 0 || nl + 1 >= have) return runChunk(k, EMPTY, undefined); // inside one long line
      start = nl + 1;
    }
    if (start >= have) return runChunk(k, EMPTY, undefined);
    let end = have;
    let tooLong: string | undefined;
    if (buf[have - 1] !== 10 && from + have < size) {
      // The last line runs on: where it starts, then read on to its line end.
      const lastStart = Math.max(start, buf.lastIndexOf(10, have - 1) + 1);
      for (;;) {
        const want = Math.min(READ_STEP, size - (from + have));
        const got = want > 0 ? read(have, want, from + have) : 0;
        const nl = got > 0 ? buf.subarray(have, have + got).indexOf(10) : -1;
        if (nl >= 0) { end = have + nl + 1; break; }
        have += got;
        end = have;
        if (got === 0 || have - lastStart > MAX_LINE_BYTES) break;
      }
      const content = end - lastStart - (buf[end - 1] === 10 ? 1 : 0);
      if (content > MAX_LINE_BYTES) {
        tooLong = buf.subarray(lastStart, lastStart + 64).toString('latin1');
        end = lastStart;
      }
    }
    return runChunk(k, buf.subarray(start, end), tooLong);
  }

  const chunks = data.plan ? chunkCount(data.plan) : 0;
  return (job) => {
    try {
      if ('range' in job) {
        for (;;) {
          const k = Atomics.add(control, NEXT, 1);
          if (k >= chunks || Atomics.load(control, STOP) !== RUNNING) return {};
          const r = rangeChunk(k);
          if (r.stop !== undefined) return r;
        }
      }
      if ('tooLong' in job) return runChunk(job.k, EMPTY, job.tooLong);
      return runChunk(job.k, job.bytes, undefined);
    } catch (e) {
      stopRun(control, WRITE_FAILED, slotState);
      throw e;
    }
  };
}

