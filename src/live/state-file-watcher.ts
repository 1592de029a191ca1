/**
 * Following a file an agent rewrites (a state file), as the versions it goes through: chokidar
 * watches the file's directory (so a file replaced by a rename, or deleted and created again, is
 * still seen), every event is read after a short quiet time, and each content that differs from the
 * last one handled is a new version, handed on in order, one at a time.
 *
 * How agents write files, and what is made of each:
 * - atomic rename (write a temporary file, rename it over the state file): one version;
 * - truncate and write: the empty or partial file does not parse, the full one does — one version;
 * - a partly written file: a text that does not parse waits; if it stays unchanged for `settleMs`
 *   it is handed on as broken (once), otherwise the next text replaces it;
 * - deletion and re-creation: the deletion is told (`removed`), the re-created file is the next version;
 * - the same content written again (or an event for no change): nothing.
 */
import { watch, type FSWatcher } from 'chokidar';
import { basename, dirname, resolve } from 'node:path';
import type { DataResult } from '../parse/data.js';
import { readText } from '../parse/fs.js';

export interface FileVersion {
  /** 1 for the first version handled, counting every version handed on (broken ones too) */
  n: number;
  text: string;
  format: 'JSON' | 'YAML';
  parsed: DataResult;
}

export type WatchState =
  /** watching; the file does not exist yet */
  | 'waiting'
  /** the file was deleted (its next version is the re-created file) */
  | 'removed'
  /** the file does not parse yet: waiting for the rest of it */
  | 'incomplete'
  /** the file cannot be read (a directory, not UTF-8 …): `detail` says why */
  | 'unreadable';

export interface StateFileWatcherOptions {
  /** the state file */
  file: string;
  /** parse a text (JSON or YAML, by the file's name or the text) */
  parse: (text: string) => Promise<{ format: 'JSON' | 'YAML'; parsed: DataResult }>;
  /** a new version that parses */
  onVersion: (v: FileVersion) => Promise<void> | void;
  /** a text that did not parse and stayed unchanged for settleMs */
  onBroken: (v: FileVersion) => Promise<void> | void;
  onState?: (state: WatchState, detail?: string) => void;
  /** a problem of the watcher itself (the directory went away …) */
  onError?: (error: Error) => void;
  /** how long the file must be quiet before it is read (ms) */
  quietMs?: number;
  /** how long a text that does not parse must stay unchanged before it is reported as broken (ms) */
  settleMs?: number;
}

export class StateFileWatcher {
  private readonly file: string;
  private watcher: FSWatcher | null = null;
  private quiet: NodeJS.Timeout | null = null;
  private settle: NodeJS.Timeout | null = null;
  /** the reads, one after another */
  private queue: Promise<void> = Promise.resolve();
  /** the last text handed on (a version), and the text waiting to settle */
  private lastText: string | null = null;
  private waitingText: string | null = null;
  private present = false;
  private n = 0;
  private closed = false;

  constructor(private readonly options: StateFileWatcherOptions) {
    this.file = resolve(options.file);
  }

  /** Start watching; resolves once the watcher is ready and the file as it is now has been read. */
  async start(): Promise<void> {
    const name = basename(this.file);
    const dir = dirname(this.file);
    const watcher = watch(dir, {
      depth: 0,
      ignoreInitial: true,
      // only the directory itself and the state file: other files of the directory are never read
      ignored: (path) => path !== dir && basename(path) !== name,
    });
    this.watcher = watcher;
    watcher.on('all', (_event, path) => {
      if (resolve(path) === this.file) this.poke();
    });
    watcher.on('error', (e) => this.options.onError?.(e instanceof Error ? e : new Error(String(e))));
    await new Promise<void>((ok) => watcher.once('ready', () => ok()));
    await this.enqueue(() => this.read(true));
  }

  /** Stop watching; resolves when the read under way (if any) is done. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.quiet) clearTimeout(this.quiet);
    if (this.settle) clearTimeout(this.settle);
    await this.watcher?.close();
    await this.queue;
  }

  /** Something happened to the file: read it once it has been quiet for a moment. */
  private poke(): void {
    if (this.closed) return;
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = setTimeout(() => {
      this.quiet = null;
      void this.enqueue(() => this.read(false));
    }, this.options.quietMs ?? 50);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task).catch((e: unknown) => this.options.onError?.(e instanceof Error ? e : new Error(String(e))));
    return this.queue;
  }

  private async read(initial: boolean): Promise<void> {
    if (this.closed) return;
    const read = readText(this.file);
    if ('error' in read) {
      if (read.missing) {
        if (initial) this.options.onState?.('waiting');
        else if (this.present) this.options.onState?.('removed');
        this.present = false;
        this.waitingText = null;
        return;
      }
      this.present = true;
      this.options.onState?.('unreadable', read.error);
      return;
    }
    this.present = true;
    const { text } = read;
    if (text === this.lastText) {
      // back to the last version (a partial write undone, or the same content written again)
      this.waitingText = null;
      return;
    }
    if (text === this.waitingText) return;
    const { format, parsed } = await this.options.parse(text);
    if (this.closed) return;
    if ('root' in parsed) {
      this.waitingText = null;
      if (this.settle) clearTimeout(this.settle);
      await this.handOn({ text, format, parsed }, this.options.onVersion);
      return;
    }
    // not (yet) a whole file: wait for the rest; report it only if it stays like this
    this.waitingText = text;
    this.options.onState?.('incomplete', parsed.error.message);
    if (this.settle) clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      this.settle = null;
      void this.enqueue(async () => {
        if (this.closed || this.waitingText !== text) return;
        const again = readText(this.file);
        if (!('text' in again) || again.text !== text) return;
        this.waitingText = null;
        await this.handOn({ text, format, parsed }, this.options.onBroken);
      });
    }, this.options.settleMs ?? 2000);
  }

  private async handOn(v: Omit<FileVersion, 'n'>, to: (v: FileVersion) => Promise<void> | void): Promise<void> {
    this.lastText = v.text;
    this.n++;
    await to({ n: this.n, ...v });
  }
}
