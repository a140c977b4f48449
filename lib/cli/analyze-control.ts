/**
 * The control block the analyze command's main thread and its worker threads share (see
 * lib/cli/analyze-chunks.ts): chunk size, the slots of the shared counters, and the messages. Kept
 * apart from the analysis code so the main thread loads none of it.
 */
import type { RecordFormat } from '../batch/batch.js';

/**
 * Bytes per chunk of input a worker takes at a time: small enough that a chunk's text, positions,
 * feature planes and records stay in the caches; the number of chunks costs nothing more, since no
 * worker waits for another's write.
 */
export const CHUNK_BYTES = 1 << 18;
/** The smallest chunk of a file read in byte ranges (see ChunkPlan). */
export const MIN_CHUNK_BYTES = 1 << 16;

/**
 * How a file read in byte ranges is cut into chunks: `full` chunks of CHUNK_BYTES, then a tail whose
 * chunks shrink, each a (2 * threads)th of what is left and at least MIN_CHUNK_BYTES (guided
 * self-scheduling), so that the threads run out of work at nearly the same time instead of one thread
 * finishing a whole chunk alone. `tail` holds the tail chunks' start offsets, then the file size.
 */
export interface ChunkPlan { readonly full: number; readonly tail: readonly number[] }

export function chunkPlan(size: number, threads: number): ChunkPlan {
  const full = Math.max(0, Math.floor(size / CHUNK_BYTES) - 2 * threads);
  const tail = [full * CHUNK_BYTES];
  for (let at = tail[0]!; at < size;) {
    at = Math.min(size, at + Math.min(CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, Math.ceil((size - at) / (2 * threads)))));
    tail.push(at);
  }
  return { full, tail };
}

/** The number of chunks of a plan. */
export const chunkCount = (plan: ChunkPlan): number => plan.full + plan.tail.length - 1;

/** Chunk k's byte range [lo, hi) under a plan. */
export function chunkRange(plan: ChunkPlan, k: number): [number, number] {
  if (k < plan.full) return [k * CHUNK_BYTES, (k + 1) * CHUNK_BYTES];
  return [plan.tail[k - plan.full]!, plan.tail[k - plan.full + 1]!];
}

/** Lines longer than this become an error record and are skipped, never held in memory whole. */
export const MAX_LINE_BYTES = 1 << 20;

/** Int32 slots of the control block (WORKER_IDS: each worker thread takes its number from it). */
export const NEXT = 0, COUNTED = 1, TURN = 2, STOP = 3, WORKER_IDS = 4, CONTROL_SLOTS = 5;
/** BigInt64 slots: the line number before chunk COUNTED, then totals of the written chunks. */
export const LINE_BASE = 0, LINES = 1, ERRORS = 2, BYTES = 3;
/** STOP values: running, --strict stopped at a bad line, the reader closed stdout, stdout failed. */
export const RUNNING = 0, STRICT = 1, EPIPE = 2, WRITE_FAILED = 3;

/**
 * Where a finished chunk's records wait when it is not yet their turn to be written (see
 * analyzeWorker): each worker thread has SLOTS_PER_THREAD output slots of SLOT_BYTES in shared
 * memory, and a parked chunk k is entry k % entries of a ring of PARK_FIELDS Int32 fields.
 */
export const SLOTS_PER_THREAD = 2;
export const SLOT_BYTES = 8 * CHUNK_BYTES;
export const PARK_STATE = 0, PARK_SLOT = 1, PARK_LENGTH = 2, PARK_LINES = 3, PARK_ERRORS = 4, PARK_BYTES = 5, PARK_FIELDS = 6;
/** Ring entries for `threads` workers: more than the chunks that can be taken and not yet written. */
export const parkEntries = (threads: number): number => 8 * threads;

/** The shared memory of a run with `threads` worker threads. */
export function sharedBlocks(threads: number): Pick<WorkerData, 'control' | 'totals' | 'slots' | 'slotState' | 'park'> {
  return {
    control: new SharedArrayBuffer(4 * CONTROL_SLOTS),
    totals: new SharedArrayBuffer(4 * 8),
    slots: Array.from({ length: threads * SLOTS_PER_THREAD }, () => new SharedArrayBuffer(SLOT_BYTES)),
    slotState: new SharedArrayBuffer(4 * threads * SLOTS_PER_THREAD),
    park: new SharedArrayBuffer(4 * PARK_FIELDS * parkEntries(threads)),
  };
}

export interface WorkerData {
  /** The worker build to require (WORKER_ENTRY). */
  entry: string;
  backend: 'native' | 'js';
  explicit: boolean;
  ids: number[];
  format: RecordFormat;
  syzygy: string[];
  strict: boolean;
  /** --chess960: castling fields read as X-FEN. */
  chess960?: boolean;
  control: SharedArrayBuffer;
  totals: SharedArrayBuffer;
  /** Output slots (SLOTS_PER_THREAD per worker), their states (0 free, 1 in use) and the parking ring. */
  slots: SharedArrayBuffer[];
  slotState: SharedArrayBuffer;
  park: SharedArrayBuffer;
  /** Range mode: the input file, its size in bytes and its chunks (the workers read it themselves). */
  file?: string;
  size?: number;
  plan?: ChunkPlan;
}

/** What a job tells the main thread: why the run stopped early, if it did. */
export interface JobResult { stop?: number; message?: string }

/** A job: range mode reads chunks until there are none left; stream mode gets one piece. */
export type Job = { range: true } | { k: number; bytes: Uint8Array } | { k: number; tooLong: string };

