/**
 * A worker thread of the per-file phase, with the rules of the run it serves: loopkit's core rules
 * and the plugins the run hands it (workerData, api/engine.ts). Batches of jobs in, outcomes out.
 * The engine's pool starts it from the script the front end names (RunnerOptions.workerScript).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { processFile } from '../engine/file-phase.js';
import type { WorkerRequest, WorkerResponse } from '../engine/pool.js';
import type { Rule } from '../engine/rule.js';
import { coreRules, withPlugins } from './core-rules.js';
import { importPlugin, type PluginModule } from './plugins.js';

/** What a run hands its worker threads. */
export interface WorkerSetup {
  root: string;
  plugins: PluginModule[];
}

async function rules(): Promise<readonly Rule[]> {
  const setup = workerData as WorkerSetup | undefined;
  if (!setup || setup.plugins.length === 0) return coreRules;
  const loaded = [];
  for (const m of setup.plugins) loaded.push(...(await importPlugin(setup.root, m, (detail) => new Error(detail))).rules);
  return withPlugins(loaded);
}

const ready = rules();

parentPort?.on('message', (req: WorkerRequest) => {
  void ready.then(
    (ruleSet) => {
      let res: WorkerResponse;
      try {
        res = { id: req.id, outcomes: req.jobs.map((job) => processFile(job, ruleSet)) };
      } catch (e) {
        res = { id: req.id, error: (e as Error).stack ?? String(e) };
      }
      parentPort!.postMessage(res);
    },
    (e: unknown) => parentPort!.postMessage({ id: req.id, error: (e as Error).message } satisfies WorkerResponse),
  );
});
