/**
 * A worker thread of the per-file phase, with loopkit's core rules: batches of jobs in, outcomes
 * out. The engine's pool starts it from the script the front end names (RunnerOptions.workerScript).
 */
import { parentPort } from 'node:worker_threads';
import { processFile } from '../engine/file-phase.js';
import type { WorkerRequest, WorkerResponse } from '../engine/pool.js';
import { coreRules } from './core-rules.js';

parentPort?.on('message', (req: WorkerRequest) => {
  let res: WorkerResponse;
  try {
    res = { id: req.id, outcomes: req.jobs.map((job) => processFile(job, coreRules)) };
  } catch (e) {
    res = { id: req.id, error: (e as Error).stack ?? String(e) };
  }
  parentPort!.postMessage(res);
});
