/**
 * Helper threads of the per-file phase: each takes one batch of files at a time and sends back
 * their outcomes. Started on first use; a thread that fails (its error, or an exit) fails the run.
 */
import type * as WorkerThreads from 'node:worker_threads';
import type { Worker } from 'node:worker_threads';
import { nodeModule } from '../util/node-module.js';
import type { FileJob, FileOutcome } from './file-phase.js';

/** A batch of jobs for a helper thread (api/worker.ts runs them with the rules it was built with). */
export interface WorkerRequest {
  id: number;
  jobs: FileJob[];
}

export type WorkerResponse = { id: number; outcomes: FileOutcome[] } | { id: number; error: string };

/**
 * The old-generation heap of a helper: enough for the mdast of the largest file loopkit reads
 * (8 MiB of markdown), small enough that a helper collects its garbage instead of growing.
 */
const HEAP_MB = 512;

interface Helper {
  worker: Worker;
  busy: boolean;
}

export class WorkerPool {
  private readonly helpers: Helper[] = [];
  private nextId = 0;

  constructor(
    private readonly script: URL | string,
    readonly size: number,
    workerData?: unknown,
  ) {
    const entry = typeof this.script === 'string' && this.script.startsWith('file:') ? new URL(this.script) : this.script;
    const { Worker } = nodeModule<typeof WorkerThreads>('node:worker_threads');
    for (let i = 0; i < size; i++) {
      const worker = new Worker(entry, {
        resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
        ...(workerData !== undefined ? { workerData } : {}),
      });
      worker.unref();
      this.helpers.push({ worker, busy: false });
    }
  }

  /** How many helpers are free for a batch. */
  idle(): number {
    return this.helpers.filter((h) => !h.busy).length;
  }

  /** Run one batch on a free helper (call only when idle() > 0). */
  run(jobs: readonly FileJob[]): Promise<FileOutcome[]> {
    const helper = this.helpers.find((h) => !h.busy);
    if (!helper) return Promise.reject(new Error('no free worker thread'));
    helper.busy = true;
    const id = this.nextId++;
    const { worker } = helper;
    worker.ref();
    return new Promise<FileOutcome[]>((resolve, reject) => {
      const done = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref();
        helper.busy = false;
      };
      const onMessage = (res: WorkerResponse) => {
        if (res.id !== id) return;
        done();
        if ('error' in res) reject(new Error(`per-file phase failed in a worker thread: ${res.error}`));
        else resolve(res.outcomes);
      };
      const onError = (e: Error) => {
        done();
        reject(e);
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`a worker thread stopped (exit code ${code})`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, jobs: [...jobs] } satisfies WorkerRequest);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.helpers.splice(0).map((h) => h.worker.terminate()));
  }
}
