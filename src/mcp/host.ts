/**
 * The project's model a long-running front end (the MCP server) answers from: an engine session
 * (engine/session.ts) kept in memory between requests, told what changed on disk as the project's
 * files change (watched with chokidar), so a change is checked again where it reaches — the same
 * per-file and project phases `check` and the language server run.
 */
import { watch, type FSWatcher } from 'chokidar';
import { relative, resolve, sep } from 'node:path';
import { IGNORED_PATH, type FileChange, type ProjectSession, type SessionCheck } from '../engine/session.js';
import { openSession } from '../api/engine.js';
import { climbsOut } from '../util/paths.js';

/** What the answers read of a check: the model, the graph and the problems. */
export type Checked = Pick<SessionCheck, 'project' | 'graph' | 'diagnostics' | 'rules' | 'errors' | 'warnings' | 'info'>;

export interface ModelHost {
  /** the project root as the user named it */
  readonly root: string;
  /** the check as it is now (after the changes handed in so far); rejects with the reason it cannot be read (a broken config …) */
  current(): Promise<Checked>;
  /** `listener` is called after every change of the project that was checked again */
  onReload(listener: () => void): void;
  close(): Promise<void>;
}

/** Files whose change (not creation or deletion) can change the model: markdown, YAML (the config), scripts of skills, .gitignore. */
const RELEVANT = /(?:\.md|\.ya?ml|\/scripts\/[^/]+|(?:^|\/)\.gitignore)$/iu;

export class SessionModelHost implements ModelHost {
  private readonly listeners: (() => void)[] = [];
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly pending = new Map<string, FileChange['type']>();
  private closed = false;

  private constructor(
    readonly root: string,
    private readonly session: ProjectSession,
    private readonly quietMs: number,
  ) {}

  /** Read the project and start watching it; resolves when the watcher is ready. */
  static async open(root: string, options: { quietMs?: number } = {}): Promise<SessionModelHost> {
    const session = await openSession({ root, concurrency: 'off', plugins: false });
    const host = new SessionModelHost(root, session, options.quietMs ?? 150);
    await host.watch();
    return host;
  }

  private async watch(): Promise<void> {
    const abs = this.session.root;
    const watcher = watch(abs, {
      ignoreInitial: true,
      depth: 12,
      ignored: (path) => IGNORED_PATH.test(relative(abs, path)),
    });
    this.watcher = watcher;
    watcher.on('all', (event, path) => {
      const rel = relative(abs, resolve(path)).split(sep).join('/');
      if (rel === '' || climbsOut(rel)) return;
      const type: FileChange['type'] =
        event === 'add' || event === 'addDir' ? 'created' : event === 'unlink' || event === 'unlinkDir' ? 'deleted' : 'changed';
      // a file added or removed may be a skill, a linked file or a state file the config names; a change counts when it can reach the model
      if (type === 'changed' && !RELEVANT.test(rel)) return;
      this.pending.set(rel, type);
      this.schedule();
    });
    // a directory the watcher cannot read is not a reason to stop serving
    watcher.on('error', () => undefined);
    await new Promise<void>((ok) => watcher.once('ready', () => ok()));
  }

  /** Hand a burst of changes to the session together, once the file system is quiet. */
  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const changes = [...this.pending].map(([path, type]) => ({ path, type }));
      this.pending.clear();
      void this.session.changed(changes).then(() => this.notify());
    }, this.quietMs);
  }

  private notify(): void {
    if (!this.closed) for (const l of this.listeners) l();
  }

  async current(): Promise<Checked> {
    const state = await this.session.settled();
    if (state.check) return state.check;
    throw state.failure ?? new Error('the project could not be read');
  }

  onReload(listener: () => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.watcher?.close();
  }
}
