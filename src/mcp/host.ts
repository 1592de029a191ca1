/**
 * The project's model a long-running front end (the MCP server) answers from: read once, read again
 * when the project's files change, kept in memory between requests. A small interface, so the server
 * does not care how the model is kept (an engine session may serve it later); this implementation
 * runs the engine's `lint` — the whole check, so `check` answers from memory too — and watches the
 * project directory with chokidar.
 */
import { watch, type FSWatcher } from 'chokidar';
import { relative, resolve, sep } from 'node:path';
import { lint, type LintResult } from '../engine/run.js';

export interface ModelHost {
  /** the project root as the user named it */
  readonly root: string;
  /** the model as it is now (after a reload under way); rejects with the reason it cannot be read (a broken config …) */
  current(): Promise<LintResult>;
  /** `listener` is called after every reload */
  onReload(listener: () => void): void;
  close(): Promise<void>;
}

/** Directories whose files are never part of a project's contracts. */
const NEVER = new Set(['node_modules', '.git']);

/** Files whose change changes the model: markdown, YAML (the config), scripts of skills. */
const RELEVANT = /(?:\.md|\.ya?ml|\/scripts\/[^/]+)$/iu;

export class WatchedModelHost implements ModelHost {
  private model: Promise<LintResult>;
  private readonly listeners: (() => void)[] = [];
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    readonly root: string,
    private readonly quietMs: number,
  ) {
    this.model = this.load();
  }

  /** Read the project and start watching it; resolves when the watcher is ready (the first read may still be under way). */
  static async open(root: string, options: { quietMs?: number } = {}): Promise<WatchedModelHost> {
    const host = new WatchedModelHost(root, options.quietMs ?? 150);
    await host.watch();
    return host;
  }

  private load(): Promise<LintResult> {
    const loading = lint({ root: this.root, concurrency: 'off' });
    // a rejection is kept for the requests that ask; it must not be unhandled meanwhile
    loading.catch(() => undefined);
    return loading;
  }

  private async watch(): Promise<void> {
    const abs = resolve(this.root);
    const watcher = watch(abs, {
      ignoreInitial: true,
      depth: 12,
      ignored: (path) =>
        relative(abs, path)
          .split(sep)
          .some((part) => NEVER.has(part)),
    });
    this.watcher = watcher;
    watcher.on('all', (event, path) => {
      // a file added or removed may be a skill or a state file the config names; a change counts when it is a contract's
      if (event === 'change' && !RELEVANT.test(path.split(sep).join('/'))) return;
      this.schedule();
    });
    // a directory the watcher cannot read is not a reason to stop serving
    watcher.on('error', () => undefined);
    await new Promise<void>((ok) => watcher.once('ready', () => ok()));
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const previous = this.model;
      // requests wait for the new model; the old one is dropped when it is ready
      this.model = previous.then(
        () => this.load(),
        () => this.load(),
      );
      void this.model.then(
        () => this.notify(),
        () => this.notify(),
      );
    }, this.quietMs);
  }

  private notify(): void {
    if (!this.closed) for (const l of this.listeners) l();
  }

  current(): Promise<LintResult> {
    return this.model;
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
