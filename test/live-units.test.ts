/**
 * The live modules (src/live) driven directly in the test process, for what the end-to-end tests
 * (test/watch.test.ts, test/follow.test.ts, test/live-cli.test.ts) do not pin down: what is watched
 * (the directory and the file, nothing beside them), the files that cannot be followed or read, the
 * errors handed on, the descriptors let go, the same content written again, a file created and
 * deleted before it was read, close() while a read is under way, the quiet and settle times, and a
 * trace line as `--record` writes it.
 *
 * No test waits for a time. Where the promise is that nothing happens (a touched log is not read
 * again, a deleted file is told once), the test waits until the code under test has made its read —
 * its private `read`, `check`, `poke` or `enqueue` wrapped to tell when it ran (`probe`) — then
 * looks. The quiet and settle times are checked from below only (a version is never handed on
 * sooner than the time given): a loaded machine makes those tests slower, never wrong.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseStateText } from '../src/api/state.js';
import { watchContext } from '../src/commands/watch.js';
import { UsageError } from '../src/engine/errors.js';
import { LogFollower, type FollowEvent } from '../src/live/log-follower.js';
import { StateFileWatcher, type FileVersion, type WatchState } from '../src/live/state-file-watcher.js';
import { startWatch, traceLine, type WatchEvent } from '../src/live/watch.js';
import type { LineRead } from '../src/parse/lines.js';
import { ROOT, Temps } from './helpers/cli.js';
import { EventQueue } from './helpers/events.js';

const temps = new Temps();
const closers: { close(): Promise<void> }[] = [];
const restorers: (() => void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c.close();
  for (const r of restorers.splice(0)) r();
});
afterAll(() => temps.cleanup());

/** a time no loaded machine reaches during a test: a quiet or settle time that never ends */
const NEVER = 10 * 60 * 1000;
const SESSION = join(ROOT, 'examples', 'loop-controller', 'session');
const session = (name: string) => readFileSync(join(SESSION, name), 'utf8');

/** The chokidar watcher an instance holds (what it watches). */
const watcherOf = (o: LogFollower | StateFileWatcher) => (o as unknown as { watcher: FSWatcher }).watcher;

/** What a probe saw: the method, or for `enqueue` a task queued or run; `i` its place among them (from 0). */
interface Probed {
  kind: string;
  i: number;
}

/**
 * Wrap a private method of `o` so that each call is pushed to the queue once it has run (an async
 * one once its promise settled); for `enqueue`, when a task is queued and when it has run.
 */
function probe(o: object, method: 'read' | 'check' | 'poke' | 'enqueue'): EventQueue<Probed> {
  const q = new EventQueue<Probed>();
  const push = (kind: string) => q.push({ kind, i: q.all().length });
  const target = o as Record<string, (...args: unknown[]) => unknown>;
  const original = target[method]!.bind(o);
  target[method] =
    method === 'enqueue'
      ? (task: unknown) => {
          push('queued');
          return original(async () => {
            try {
              await (task as () => Promise<void>)();
            } finally {
              push('ran');
            }
          });
        }
      : (...args: unknown[]) => {
          const r = original(...args);
          if (r instanceof Promise) return r.finally(() => push(method));
          push(method);
          return r;
        };
  return q;
}

/** The first call `q` sees from now on (of `kind`, when given): take the mark before acting. */
function after(q: EventQueue<Probed>, what: string, kind?: string): Promise<Probed> {
  const mark = q.all().length;
  return q.next((e) => e.i >= mark && (kind === undefined || e.kind === kind), what);
}

/**
 * Timers of `ms` milliseconds are not left to time: each is kept, and runs when the test calls
 * `fire()` (a settle time that ends exactly when the test says). Other timers run as usual.
 */
function heldTimers(ms: number) {
  const held: (() => void)[] = [];
  const real = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, delay?: number) => {
    if (delay !== ms) return real(callback, delay);
    held.push(callback);
    // a real timer (so that clearTimeout takes it) that never runs
    return real(() => {}, 2 ** 31 - 1).unref();
  }) as typeof setTimeout);
  restorers.push(() => spy.mockRestore());
  return {
    get count() {
      return held.length;
    },
    /** run the last timer kept */
    fire: () => held.at(-1)!(),
  };
}

/** The descriptors of this process open on `file` (Linux: /proc/self/fd). */
function descriptorsOn(file: string): string[] {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  });
}
const HAS_PROC = existsSync('/proc/self/fd');
const HAS_MKFIFO = (() => {
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// ---------------------------------------------------------------------------------------------
// trace --follow: LogFollower

type Seen = { line: LineRead } | { event: FollowEvent } | { error: string };

async function follow(file: string) {
  const seen = new EventQueue<Seen>();
  const follower = new LogFollower({
    file,
    onLine: (line) => seen.push({ line }),
    onEvent: (event) => seen.push({ event }),
    onError: (e) => seen.push({ error: e.message }),
  });
  closers.push(follower);
  const checks = probe(follower, 'check');
  await follower.start();
  return { seen, follower, checks };
}
const text = (t: string) => (s: Seen) => 'line' in s && 'text' in s.line && s.line.text === t;
const lines = (q: EventQueue<Seen>) => q.all().flatMap((s) => ('line' in s ? [s.line] : []));
const events = (q: EventQueue<Seen>) => q.all().flatMap((s) => ('event' in s ? [s.event] : []));
const errors = (q: EventQueue<Seen>) => q.all().flatMap((s) => ('error' in s ? [s.error] : []));

describe('LogFollower', () => {
  it('watches the log and its directory only: not the other files and folders beside it', async () => {
    const d = temps.dir('loopkit-follow-');
    writeFileSync(join(d, 'other.log'), 'x\n');
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'sub', 'inner.log'), 'y\n');
    writeFileSync(join(d, 'run.jsonl'), 'a\n');
    const { follower, seen } = await follow(join(d, 'run.jsonl'));
    await seen.next(text('a'), 'the first line');
    expect(watcherOf(follower).getWatched()).toEqual({ [dirname(d)]: [basename(d)], [d]: ['run.jsonl'] });
  });

  it('a log that is a directory cannot be followed: one error that says so, nothing read, nothing waited for', async () => {
    const d = temps.dir('loopkit-follow-');
    const file = join(d, 'run.jsonl');
    mkdirSync(file);
    const { seen, follower } = await follow(file);
    await follower.close();
    expect(seen.all()).toEqual([{ error: `${file} cannot be followed: Is a directory` }]);
  });

  it.skipIf(!HAS_MKFIFO)('a FIFO is refused at once: opening it does not wait for a writer', async () => {
    const d = temps.dir('loopkit-follow-');
    const file = join(d, 'run.jsonl');
    execFileSync('mkfifo', [file]);
    const { seen, follower } = await follow(file);
    await follower.close();
    expect(seen.all()).toEqual([{ error: `${file} cannot be followed: Not a regular file (a FIFO)` }]);
  });

  it('a log that cannot be opened (a link to itself) is an error, not a log to wait for', async () => {
    const d = temps.dir('loopkit-follow-');
    const file = join(d, 'run.jsonl');
    symlinkSync('run.jsonl', file);
    const { seen, follower } = await follow(file);
    await follower.close();
    expect(events(seen)).toEqual([]);
    // the follower's own open, and chokidar's look at the link (a problem of the watcher itself)
    expect(errors(seen)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^ELOOP: .*, open /u), expect.stringMatching(/^ELOOP: .*, stat /u)]),
    );
  });

  it("the lines already there are read by start(), once: chokidar's first look at the log is no event", async () => {
    const file = join(temps.dir('loopkit-follow-'), 'run.jsonl');
    writeFileSync(file, 'a\n');
    const seen = new EventQueue<Seen>();
    const follower = new LogFollower({ file, onLine: (line) => seen.push({ line }), onEvent: (event) => seen.push({ event }) });
    closers.push(follower);
    const pokes = probe(follower, 'poke');
    await follower.start();
    expect(seen.all()).toEqual([{ line: { line: 1, text: 'a' } }]);
    // no look at the log is pending: chokidar's scan before it was ready told nothing
    expect(pokes.all()).toEqual([]);
  });

  it('closing a follower of a log that never came is quiet: no error, no line', async () => {
    const file = join(temps.dir('loopkit-follow-'), 'run.jsonl');
    const { seen, follower } = await follow(file);
    await follower.close();
    expect(seen.all()).toEqual([{ event: 'waiting' }]);
  });

  it('a log touched without a change (its time only) is not read again', async () => {
    const file = join(temps.dir('loopkit-follow-'), 'run.jsonl');
    writeFileSync(file, 'a\nb\n');
    const { seen, checks } = await follow(file);
    await seen.next(text('b'), 'the lines already there');
    const looked = after(checks, 'the look at the touched log');
    utimesSync(file, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    await looked;
    writeFileSync(file, 'c\n', { flag: 'a' });
    await seen.next(text('c'), 'the line appended');
    expect(events(seen)).toEqual([]);
    expect(lines(seen)).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: 'b' },
      { line: 3, text: 'c' },
    ]);
  });

  it('a log rotated to a new file shorter than what was read: the old file read to its end, then the new one, told as a rotation', async () => {
    const d = temps.dir('loopkit-follow-');
    const file = join(d, 'run.jsonl');
    writeFileSync(file, 'old-1\n');
    const { seen } = await follow(file);
    await seen.next(text('old-1'), 'the first line');
    writeFileSync(file, 'old-2\n', { flag: 'a' });
    renameSync(file, `${file}.1`);
    writeFileSync(file, 'n\n');
    await seen.next(text('n'), 'the first line of the new file');
    // the rename and the new file are made before the follower (in this process) can look
    expect(events(seen)).toEqual(['rotated']);
    expect(lines(seen)).toEqual([
      { line: 1, text: 'old-1' },
      { line: 2, text: 'old-2' },
      { line: 1, text: 'n' },
    ]);
  });

  it.skipIf(!HAS_PROC)('lets go of a rotated log, and of the log when it stops', async () => {
    const d = temps.dir('loopkit-follow-');
    const file = join(d, 'run.jsonl');
    writeFileSync(file, 'old\n');
    const { seen, follower } = await follow(file);
    await seen.next(text('old'), 'the first line');
    expect(descriptorsOn(file)).toHaveLength(1);
    renameSync(file, `${file}.1`);
    writeFileSync(file, 'new\n');
    await seen.next(text('new'), 'the first line of the new file');
    expect(descriptorsOn(`${file}.1`)).toEqual([]);
    expect(descriptorsOn(file)).toHaveLength(1);
    await follower.close();
    expect(descriptorsOn(file)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// watch: StateFileWatcher

type Told =
  { version: number; text: string } | { broken: number; text: string } | { state: WatchState; detail?: string } | { error: string };

const parseJson = async (text: string) => ({ format: 'JSON' as const, parsed: await parseStateText(text, 'JSON') });

function stateWatcher(
  file: string,
  options: { quietMs?: number; settleMs?: number; parse?: (text: string) => ReturnType<typeof parseJson> } = {},
) {
  const told = new EventQueue<Told>();
  const watcher = new StateFileWatcher({
    file,
    parse: options.parse ?? parseJson,
    onVersion: (v: FileVersion) => told.push({ version: v.n, text: v.text }),
    onBroken: (v: FileVersion) => told.push({ broken: v.n, text: v.text }),
    onState: (state, detail) => told.push(detail !== undefined ? { state, detail } : { state }),
    onError: (e) => told.push({ error: e.message }),
    quietMs: options.quietMs ?? 50,
    settleMs: options.settleMs ?? NEVER,
  });
  closers.push(watcher);
  return { told, watcher };
}
const isVersion = (n: number) => (t: Told) => 'version' in t && t.version === n;
const isState = (s: WatchState) => (t: Told) => 'state' in t && t.state === s;

describe('StateFileWatcher', () => {
  it('watches the state file and its directory only: the other files and folders beside it are never looked at', async () => {
    const d = temps.dir('loopkit-state-');
    writeFileSync(join(d, 'notes.md'), 'x');
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'sub', 'inner.json'), '{}');
    const file = join(d, 'state.json');
    writeFileSync(file, '{"state":"a"}');
    const { watcher, told } = stateWatcher(file);
    await watcher.start();
    await told.next(isVersion(1), 'the file as it is');
    expect(watcherOf(watcher).getWatched()).toEqual({ [dirname(d)]: [basename(d)], [d]: ['state.json'] });
  });

  it('the same content written again, or the same broken text again, is nothing new; back to the last version drops the text that waited', async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    const v1 = '{"state":"a"}';
    const broken = '{"state":';
    writeFileSync(file, v1);
    const { watcher, told } = stateWatcher(file);
    const reads = probe(watcher, 'read');
    await watcher.start();
    // each write is read on its own: the next is written only once the read of the last one is done
    for (const t of [v1, broken, broken, v1, broken]) {
      const read = after(reads, `the read of ${t}`);
      writeFileSync(file, t);
      await read;
    }
    writeFileSync(file, '{"state":"b"}');
    await told.next(isVersion(2), 'the next version');
    expect(told.all().map((t) => ('detail' in t ? { state: t.state } : t))).toEqual([
      { version: 1, text: v1 },
      { state: 'incomplete' },
      // the broken text again after the last version: waiting for the rest again
      { state: 'incomplete' },
      { version: 2, text: '{"state":"b"}' },
    ]);
  });

  it('a deletion is told once: a file created and deleted again before it was read is no second deletion', async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    const { watcher, told } = stateWatcher(file);
    const pokes = probe(watcher, 'poke');
    const reads = probe(watcher, 'read');
    await watcher.start();
    await told.next(isState('waiting'), 'waiting for the file');
    const blink = async () => {
      const poked = after(pokes, 'the event of the new file');
      writeFileSync(file, '{"state":"x"}');
      await poked;
      // before the quiet time ends (no timer runs before this continuation): read as missing
      const read = after(reads, 'the read of the missing file');
      unlinkSync(file);
      await read;
    };
    await blink();
    writeFileSync(file, '{"state":"a"}');
    await told.next(isVersion(1), 'version 1');
    unlinkSync(file);
    await told.next(isState('removed'), 'the deletion');
    await blink();
    writeFileSync(file, '{"state":"b"}');
    await told.next(isVersion(2), 'version 2');
    expect(told.all()).toEqual([
      { state: 'waiting' },
      { version: 1, text: '{"state":"a"}' },
      { state: 'removed' },
      { version: 2, text: '{"state":"b"}' },
    ]);
  });

  it('what is at the path but cannot be read is told as unreadable, and its removal as a deletion', async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    mkdirSync(file);
    const { watcher, told } = stateWatcher(file);
    const pokes = probe(watcher, 'poke');
    await watcher.start();
    expect(told.all()).toEqual([{ state: 'unreadable', detail: 'Is a directory' }]);
    // read once, by start(): chokidar's scan before it was ready told nothing (else: unreadable again)
    expect(pokes.all()).toEqual([]);
    rmdirSync(file);
    await told.next(isState('removed'), 'the removal');
    writeFileSync(file, '{"state":"a"}');
    await told.next(isVersion(1), 'version 1');
    expect(told.all()).toEqual([
      { state: 'unreadable', detail: 'Is a directory' },
      { state: 'removed' },
      { version: 1, text: '{"state":"a"}' },
    ]);
  });

  it("a state file that cannot be opened (a link to itself): unreadable, and chokidar's own problem handed to onError", async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    symlinkSync('state.json', file);
    const { watcher, told } = stateWatcher(file);
    await watcher.start();
    // chokidar's look at the link (before it is ready), then the watcher's own read
    expect(told.all()).toEqual([
      { error: expect.stringMatching(/^ELOOP: .*, stat /u) },
      { state: 'unreadable', detail: 'Is a symbolic link loop' },
    ]);
  });

  it('a parser that throws is an error handed to onError (an Error, or what was thrown as one); the watch goes on', async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    writeFileSync(file, '{"state":"a"}');
    let throwing: unknown = new Error('the parser failed');
    const { watcher, told } = stateWatcher(file, {
      parse: async (text) => {
        if (throwing !== null) throw throwing;
        return parseJson(text);
      },
    });
    await watcher.start();
    expect(told.all()).toEqual([{ error: 'the parser failed' }]);
    throwing = 'a plain string';
    writeFileSync(file, '{"state":"b"}');
    await told.next((t) => 'error' in t && t.error === 'a plain string', 'the second error');
    throwing = null;
    writeFileSync(file, '{"state":"c"}');
    await told.next(isVersion(1), 'the first version that parses');
  });

  it('close() waits for the read under way; nothing is handed on or told after it', async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    writeFileSync(file, '{"state":"a"}');
    const parsing = new EventQueue<string>();
    let release: () => void = () => {};
    const held = new Promise<void>((ok) => (release = ok));
    const { watcher, told } = stateWatcher(file, {
      parse: async (text) => {
        parsing.push(text);
        if (text.includes('"b"')) await held;
        return parseJson(text);
      },
    });
    const tasks = probe(watcher, 'enqueue');
    await watcher.start();
    writeFileSync(file, '{"state":"b"}');
    await parsing.next((t) => t.includes('"b"'), 'the read of version 2, held');
    // the read of the deletion is queued behind the held read
    const queued = after(tasks, 'the read of the deletion queued', 'queued');
    unlinkSync(file);
    await queued;
    let closed = false;
    const closing = watcher.close().then(() => (closed = true));
    await new Promise<void>((ok) => setImmediate(ok));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(told.all()).toEqual([{ version: 1, text: '{"state":"a"}' }]);
  });

  it('a broken text is not reported when the file changed before it settled, though the change was not read yet', async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    writeFileSync(file, '{"state":');
    // no read but the first and the settle's own look (the quiet time never ends)
    const { watcher, told } = stateWatcher(file, { quietMs: NEVER, settleMs: 100 });
    const tasks = probe(watcher, 'enqueue');
    await watcher.start();
    const settled = after(tasks, 'the look when the text settled', 'ran');
    // written before the settle time can end: no timer runs between start()'s read and this line
    writeFileSync(file, '{"state":"a"}');
    await settled;
    expect(told.all()).toEqual([{ state: 'incomplete', detail: expect.any(String) }]);
  });

  it('a broken text deleted and written again is waited on again: the settle time of the first text does not report it', async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    const broken = '{"state":';
    writeFileSync(file, broken);
    const SETTLE = 424_242;
    const settle = heldTimers(SETTLE);
    const { watcher, told } = stateWatcher(file, { settleMs: SETTLE });
    const reads = probe(watcher, 'read');
    await watcher.start();
    expect(settle.count).toBe(1);
    const gone = after(reads, 'the read of the deletion');
    unlinkSync(file);
    await gone;
    const read = after(reads, 'the read of the text written again');
    writeFileSync(file, broken);
    // the first text's settle time ends now, before the text written again is read
    settle.fire();
    await read;
    expect(told.all()).toEqual([
      { state: 'incomplete', detail: expect.any(String) },
      { state: 'removed' },
      { state: 'incomplete', detail: expect.any(String) },
    ]);
  });

  it('a broken text whose settle time ends while another read is under way is not reported once the watcher is closed', async () => {
    const file = join(temps.dir('loopkit-state-'), 'state.json');
    const broken = '{"state":';
    const other = '{"state":"b"}';
    writeFileSync(file, broken);
    const SETTLE = 434_343;
    const settle = heldTimers(SETTLE);
    const parsing = new EventQueue<string>();
    let release: () => void = () => {};
    const held = new Promise<void>((ok) => (release = ok));
    const { watcher, told } = stateWatcher(file, {
      settleMs: SETTLE,
      parse: async (text) => {
        parsing.push(text);
        if (text === other) await held;
        return parseJson(text);
      },
    });
    await watcher.start();
    writeFileSync(file, other);
    await parsing.next((t) => t === other, 'the read of the other text, held');
    // the broken text's settle time ends: its look is queued behind the held read …
    settle.fire();
    // … and the file holds the broken text again when it looks
    writeFileSync(file, broken);
    const closing = watcher.close();
    release();
    await closing;
    expect(told.all()).toEqual([{ state: 'incomplete', detail: expect.any(String) }]);
  });
});

// ---------------------------------------------------------------------------------------------
// watch: startWatch, traceLine

describe('traceLine', () => {
  it('a step as a line of a trace: one state as a string, several as a list; skill, agent, iteration only when known', () => {
    expect(traceLine({ states: ['a'] }, 'version 1')).toBe('{"state":"a","event":"version 1"}\n');
    expect(traceLine({ states: ['a', 'b'], label: 'in_progress' }, 'version 2')).toBe('{"state":["a","b"],"event":"version 2"}\n');
    expect(traceLine({ states: ['a'], skill: 's', agent: 'g', iteration: 0 }, 'e')).toBe(
      '{"state":"a","skill":"s","agent":"g","iteration":0,"event":"e"}\n',
    );
  });
});

describe('startWatch', () => {
  const project = (name: string, ...drop: string[]) => temps.copyOf(join(ROOT, 'examples', name), ...drop);

  async function watching(file: string, projectDir: string, options: { record?: string; quietMs?: number; settleMs?: number } = {}) {
    const events = new EventQueue<WatchEvent>();
    const { ctx } = await watchContext(file, { project: projectDir });
    const watch = await startWatch(ctx, { settleMs: NEVER, ...options, onEvent: (e) => events.push(e) });
    closers.push(watch);
    return { events, watch, ctx };
  }

  it('--record to a file that cannot be created is a usage error that names it', async () => {
    const dir = project('loop-controller', 'loop-state.json', 'session');
    const { ctx } = await watchContext(join(dir, 'loop-state.json'), { project: dir });
    const record = join(dir, 'no-such-dir', 'run.jsonl');
    const started = startWatch(ctx, { record, onEvent: () => {} });
    await expect(started).rejects.toThrow(UsageError);
    await expect(started).rejects.toThrow(new RegExp(`^cannot write --record ${record}: ENOENT`, 'u'));
  });

  it.skipIf(!existsSync('/dev/full'))(
    'a --record write that fails is an error event that names the file; the version is still checked',
    async () => {
      const dir = project('loop-controller', 'loop-state.json', 'session');
      const file = join(dir, 'loop-state.json');
      writeFileSync(file, session('01-init.json'));
      const { events } = await watching(file, dir, { record: '/dev/full' });
      expect(events.all().map((e) => e.type)).toEqual(['error', 'version']);
      expect(events.all()[0]).toEqual({ type: 'error', message: expect.stringMatching(/^cannot write --record \/dev\/full: ENOSPC/u) });
    },
  );

  it('records a version that stands for several states with what it wrote (version n (label))', async () => {
    const dir = project('loop', 'session');
    // the example's state file: "status": "in_progress", which stands for three states
    const file = join(dir, '.loop', 'state.json');
    const record = join(temps.dir(), 'run.jsonl');
    const { events, watch } = await watching(file, dir, { record });
    const v = events.all()[0];
    expect(v?.type === 'version' && v.step?.label).toBe('in_progress');
    await watch.close();
    expect(readFileSync(record, 'utf8')).toBe(
      `${JSON.stringify({ state: ['loop-scoring', 'loop-iterating', 'loop-verifying'], iteration: 2, event: 'version 1 (in_progress)' })}\n`,
    );
  });

  it('a version whose state cannot be read has not ended the run, even after a terminal state', async () => {
    const dir = project('loop-controller', 'loop-state.json', 'session');
    const file = join(dir, 'loop-state.json');
    const last = session('18-complete.json');
    writeFileSync(file, last);
    const { events } = await watching(file, dir);
    const first = events.all()[0];
    expect(first?.type === 'version' && [first.states, first.ended]).toEqual([['loop-complete'], true]);
    writeFileSync(file, last.replace('"COMPLETE"', '"COMPLEET"'));
    const e = await events.next((x) => x.type === 'version' && x.n === 2, 'version 2');
    expect(e.type === 'version' && [e.step, e.ended]).toEqual([null, false]);
  });

  it('the states of the file as events, with a detail only when there is one; a parser error as an error event', async () => {
    const dir = project('loop-controller', 'loop-state.json', 'session');
    const file = join(dir, 'loop-state.json');
    const { events, ctx } = await watching(file, dir);
    expect(events.all()).toStrictEqual([{ type: 'waiting' }]);
    writeFileSync(file, '{ "state": ');
    const incomplete = await events.next((e) => e.type === 'incomplete', 'the incomplete file');
    expect(incomplete).toStrictEqual({ type: 'incomplete', detail: expect.any(String) });

    const failing = await startWatch(
      {
        ...ctx,
        parse: () => {
          throw new Error('the parser failed');
        },
      },
      { onEvent: (e) => events.push(e) },
    );
    closers.push(failing);
    await events.next((e) => e.type === 'error', 'the error event');
    expect(events.all().at(-1)).toStrictEqual({ type: 'error', message: 'the parser failed' });
  });

  it('the quiet time and the settle time given are those used: a version is not read, a broken one not reported, sooner', async () => {
    const dir = project('loop-controller', 'loop-state.json', 'session');
    const file = join(dir, 'loop-state.json');
    writeFileSync(file, session('01-init.json'));
    // a settle time longer than the default (2 s), a quiet time longer than the default (50 ms)
    const { events } = await watching(file, dir, { quietMs: 500, settleMs: 2300 });
    writeFileSync(file, '{ "state": ');
    let from = performance.now();
    await events.next((e) => e.type === 'incomplete', 'the incomplete file');
    expect(performance.now() - from).toBeGreaterThanOrEqual(495);
    from = performance.now();
    const broken = await events.next((e) => e.type === 'broken', 'the broken version');
    expect(performance.now() - from).toBeGreaterThanOrEqual(2290);
    expect(broken.type === 'broken' && broken.n).toBe(2);
  });

  it.skipIf(!HAS_PROC)(
    "a consumer whose onEvent throws, even on the error event, makes startWatch fail, and the state file's watcher and the --record file are closed",
    async () => {
      const closing = vi.spyOn(StateFileWatcher.prototype, 'close');
      const dir = project('loop-controller', 'loop-state.json', 'session');
      const file = join(dir, 'loop-state.json');
      writeFileSync(file, session('01-init.json'));
      const { ctx } = await watchContext(file, { project: dir });
      const record = join(temps.dir(), 'run.jsonl');
      const seen: string[] = [];
      let failing = true;
      const started = startWatch(ctx, {
        record,
        onEvent: (e) => {
          seen.push(e.type);
          if (failing) throw new Error(`the consumer failed on ${e.type}`);
        },
      });
      await expect(started).rejects.toThrow('the consumer failed on error');
      failing = false;
      expect(seen).toEqual(['version', 'error']);
      expect(closing).toHaveBeenCalledTimes(1);
      closing.mockRestore();
      expect(descriptorsOn(record)).toEqual([]);
    },
  );

  it.skipIf(!HAS_PROC)('close() stops the watch and closes the --record file', async () => {
    const dir = project('loop-controller', 'loop-state.json', 'session');
    const file = join(dir, 'loop-state.json');
    writeFileSync(file, session('01-init.json'));
    const record = join(temps.dir(), 'run.jsonl');
    const { watch, events } = await watching(file, dir, { record });
    expect(watch.versions).toBe(1);
    expect(events.all().map((e) => e.type)).toEqual(['version']);
    expect(descriptorsOn(record)).toHaveLength(1);
    await watch.close();
    expect(descriptorsOn(record)).toEqual([]);
  });
});
