/**
 * The control block the analyze command's main thread and its worker threads share (see
 * lib/cli/analyze-chunks.ts): chunk size, the slots of the shared counters, and the messages. Kept
 * apart from the analysis code so the main thread loads none of it.
 */
import type { RecordFormat } from '../batch.js';

/** Bytes per chunk of input a worker takes at a time. */
export const CHUNK_BYTES = 1 << 20;
/** Lines longer than this become an error record and are skipped, never held in memory whole. */
export const MAX_LINE_BYTES = CHUNK_BYTES;

/** Int32 slots of the control block. */
export const NEXT = 0, COUNTED = 1, TURN = 2, STOP = 3;
/** BigInt64 slots: the line number before chunk COUNTED, then totals of the written chunks. */
export const LINE_BASE = 0, LINES = 1, ERRORS = 2, BYTES = 3;
/** STOP values: running, --strict stopped at a bad line, the reader closed stdout, stdout failed. */
export const RUNNING = 0, STRICT = 1, EPIPE = 2, WRITE_FAILED = 3;

export interface WorkerData {
  entry: string;
  backend: 'native' | 'js';
  explicit: boolean;
  ids: number[];
  format: RecordFormat;
  syzygy: string[];
  strict: boolean;
  control: SharedArrayBuffer;
  totals: SharedArrayBuffer;
  /** Range mode: the input file and its size in bytes (the workers read it themselves). */
  file?: string;
  size?: number;
}

/** What a job tells the main thread: why the run stopped early, if it did. */
export interface JobResult { stop?: number; message?: string }

/** A job: range mode reads chunks until there are none left; stream mode gets one piece. */
export type Job = { range: true } | { k: number; bytes: Uint8Array } | { k: number; tooLong: string };

