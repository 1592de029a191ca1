/**
 * Vitest's global setup: every loopkit the tests run (in this process, in worker threads or as a
 * child process, all of which inherit the environment) keeps its cache in a temporary directory,
 * never in the user's real cache directory. The test of the default location sets its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const home = mkdtempSync(join(tmpdir(), 'loopkit-test-cache-'));
  process.env.LOOPKIT_CACHE_DIR = join(home, 'loopkit');
  process.env.XDG_CACHE_HOME = home;
  process.env.LOCALAPPDATA = home;
  return () => rmSync(home, { recursive: true, force: true });
}
