/**
 * The server's own file watching, for editors that do not watch files for it (Neovim before 0.9,
 * simple clients): a project's root (its `.loopkit.yaml`, README, baseline) and each skills
 * directory with everything in it, never `node_modules` or `.git`. Events of a burst are handed
 * over together once the file system is quiet for a moment.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { IGNORED_PATH, type FileChange } from '../engine/session.js';
import { exists } from '../parse/fs.js';

/** Changes of one burst of events are handed over together after this quiet time. */
const SETTLE_MS = 60;

export interface ProjectWatch {
  /** the directories watched (absolute) */
  readonly dirs: readonly string[];
  close(): void;
}

/**
 * Watch a project: `root` itself (not its sub-folders) and `dirs` (absolute) with all they hold.
 * `changed` receives absolute paths; `failed` hears why a directory cannot be watched.
 */
export function watchProject(
  root: string,
  dirs: readonly string[],
  changed: (changes: { abs: string; type: FileChange['type'] }[]) => void,
  failed: (message: string) => void,
): ProjectWatch {
  const pending = new Map<string, FileChange['type']>();
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const changes = [...pending].map(([abs, type]) => ({ abs, type }));
    pending.clear();
    changed(changes);
  };
  const watchers: FSWatcher[] = [];
  const add = (dir: string, recursive: boolean) => {
    try {
      const w = watch(dir, { recursive }, (event, name) => {
        if (!name || IGNORED_PATH.test(name.toString())) return;
        const abs = join(dir, name.toString());
        // a `rename` event is a file that appeared or went away
        pending.set(abs, event === 'change' ? 'changed' : exists(abs) ? 'created' : 'deleted');
        timer ??= setTimeout(flush, SETTLE_MS);
      });
      w.on('error', (e) => failed(`${dir}: ${e.message}`));
      watchers.push(w);
    } catch (e) {
      failed(`${dir}: ${(e as Error).message}`);
    }
  };
  // skills kept at the top of the project: the root is a skills directory, watched with all it holds
  add(root, dirs.includes(root));
  for (const dir of dirs) if (dir !== root) add(dir, true);
  return {
    dirs,
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers.splice(0)) w.close();
    },
  };
}
