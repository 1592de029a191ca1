/**
 * A pool of worker threads for the per-file phase. Jobs go out in batches of about BATCH_CHARS of
 * text, handed to whichever worker is free (so a few large files do not leave a thread idle), and
 * the outcomes come back in job order whatever order the threads finish in.
 */
import { Worker } from 'node:worker_threads';
import type { FileJob, FileOutcome } from './file-phase.js';
import type { WorkerRequest, WorkerResponse } from './worker.js';

const BATCH_CHARS = 64 * 1024;

export class WorkerPool {
  private readonly workers: Worker[] = [];

  constructor(
    private readonly script: URL | string,
    readonly size: number,
  ) {}

  private start(): Worker[] {
    while (this.workers.length < this.size) this.workers.push(new Worker(this.script));
    return this.workers;
  }

  async run(jobs: readonly FileJob[]): Promise<FileOutcome[]> {
    const outcomes = new Array<FileOutcome>(jobs.length);
    if (jobs.length === 0) return outcomes;
    // batches of consecutive jobs
    const batches: { first: number; jobs: FileJob[] }[] = [];
    let chars = Infinity;
    jobs.forEach((job, i) => {
      if (chars >= BATCH_CHARS) {
        batches.push({ first: i, jobs: [] });
        chars = 0;
      }
      batches[batches.length - 1]!.jobs.push(job);
      chars += job.text.length;
    });
    const workers = this.start();
    let next = 0;
    await new Promise<void>((resolve, reject) => {
      let pending = 0;
      let failed = false;
      const send = (w: Worker) => {
        if (failed || next >= batches.length) return;
        const id = next++;
        pending++;
        w.postMessage({ id, jobs: batches[id]!.jobs } satisfies WorkerRequest);
      };
      const cleanups: (() => void)[] = [];
      const finish = (error?: Error) => {
        if (failed) return;
        if (error) failed = true;
        for (const c of cleanups) c();
        if (error) reject(error);
        else resolve();
      };
      for (const w of workers) {
        const onMessage = (res: WorkerResponse) => {
          pending--;
          if ('error' in res) return finish(new Error(`per-file phase failed in a worker thread: ${res.error}`));
          const b = batches[res.id]!;
          res.outcomes.forEach((o, k) => (outcomes[b.first + k] = o));
          send(w);
          if (pending === 0 && next >= batches.length) finish();
        };
        const onError = (e: Error) => finish(e);
        w.on('message', onMessage);
        w.on('error', onError);
        cleanups.push(() => {
          w.off('message', onMessage);
          w.off('error', onError);
        });
      }
      // two batches in flight per worker, so a thread never waits for the next one
      for (const w of workers) send(w);
      for (const w of workers) send(w);
    });
    return outcomes;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }
}
