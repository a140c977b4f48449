/**
 * What the analyze command's two readers (FEN/EPD lines and PGN games) share: a pool of worker
 * threads that take one job at a time (their records go to stdout through lib/cli/output.ts).
 *
 * A pool's worker is `new Worker(source, { eval: true, workerData })`; it posts `{ ready: true }` once
 * loaded, then answers each job `{ id, ...payload }` with `{ id, result }`, or `{ id, fatal }` /
 * `{ fatal }` when it fails (the pool then rejects every job still waiting).
 */
import { fileURLToPath } from 'node:url';
import { Worker, type TransferListItem } from 'node:worker_threads';

/**
 * The file a worker thread `require`s: the CommonJS build of lib/cli/analyze-worker.ts, beside this
 * module in dist/. A worker that loads CommonJS never starts the ESM loader, which is a good part of
 * a worker thread's start-up.
 */
export const WORKER_ENTRY = fileURLToPath(new URL('./analyze-worker.cjs', import.meta.url));

export class WorkerPool<R> {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (r: R) => void; reject: (e: Error) => void }>();
  // Jobs wait here, not in their promises' closures: once sent, a job's memory can be collected.
  private readonly queue: { message: object; transfer: TransferListItem[] }[] = [];
  private next = 0;
  private fatal: Error | undefined;
  // Per worker: settled once it has loaded (its first message), failed or exited.
  private readonly loaded: Promise<void>[] = [];

  constructor(n: number, source: string, workerData: object) {
    for (let i = 0; i < n; i++) {
      const w = new Worker(source, { eval: true, workerData });
      let settle!: () => void;
      this.loaded.push(new Promise<void>((r) => { settle = r; }));
      w.once('exit', () => settle());
      w.on('message', (m: { ready?: boolean; id?: number; fatal?: string; result?: R }) => {
        settle();
        if (m.fatal) return this.fail(new Error(m.fatal));
        if (!m.ready) {
          const done = this.waiting.get(m.id!)!;
          this.waiting.delete(m.id!);
          done.resolve(m.result!);
        }
        this.idle.push(w);
        this.pump();
      });
      w.on('error', (e) => {
        settle();
        this.fail(e);
      });
      this.workers.push(w);
    }
  }

  private fail(e: Error): void {
    this.fatal ??= e;
    for (const { reject } of this.waiting.values()) reject(e);
    this.waiting.clear();
  }

  private pump(): void {
    while (this.idle.length && this.queue.length) {
      const job = this.queue.shift()!;
      this.idle.pop()!.postMessage(job.message, job.transfer);
    }
  }

  /** Posts `{ id, ...payload }` (transferring `transfer`) to the next idle worker; resolves with its result. */
  run(payload: object, transfer: TransferListItem[] = []): Promise<R> {
    if (this.fatal) return Promise.reject(this.fatal);
    const id = this.next++;
    const result = new Promise<R>((resolve, reject) => { this.waiting.set(id, { resolve, reject }); });
    this.queue.push({ message: { id, ...payload }, transfer });
    this.pump();
    return result;
  }

  /** The first failure of a worker, if any. */
  get failure(): Error | undefined {
    return this.fatal;
  }

  /**
   * Ends the workers, each once it has loaded: Node 20 aborts the whole process when a thread is
   * terminated while it `require`s an ES module (hyparquet-writer, for Parquet output).
   */
  async close(): Promise<void> {
    await Promise.all(this.workers.map(async (w, i) => {
      await this.loaded[i];
      await w.terminate();
    }));
  }
}
