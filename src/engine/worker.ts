/** A worker thread of the per-file phase: batches of jobs in, outcomes out. */
import { parentPort } from 'node:worker_threads';
import { rules } from '../rules/index.js';
import { processFile, type FileJob, type FileOutcome } from './file-phase.js';

export interface WorkerRequest {
  id: number;
  jobs: FileJob[];
}

export type WorkerResponse = { id: number; outcomes: FileOutcome[] } | { id: number; error: string };

parentPort?.on('message', (req: WorkerRequest) => {
  let res: WorkerResponse;
  try {
    res = { id: req.id, outcomes: req.jobs.map((job) => processFile(job, rules)) };
  } catch (e) {
    res = { id: req.id, error: (e as Error).stack ?? String(e) };
  }
  parentPort!.postMessage(res);
});
