/**
 * `loopkit watch` on real file-system events: in a temporary copy of examples/loop-controller, a
 * simulated agent writes the versions of its recorded session to `loop-state.json` in every way
 * agents write files — atomic rename, truncate and write, a partial write finished later, delete and
 * re-create, the same content again — and waits for the watcher to tell it saw each version before
 * writing the next (an agent works for minutes between stages). Every legal move passes; the one
 * illegal move (version 9: loop-implement → loop-verify) is reported once, at that version; nothing
 * is missed or doubled. No test waits for a time: each waits on the watcher's events, with a
 * generous bound.
 */
import { appendFileSync, readdirSync, readFileSync, renameSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkTrace } from '../src/commands/trace.js';
import { watchContext } from '../src/commands/watch.js';
import { startWatch, type Watch, type WatchEvent } from '../src/live/watch.js';
import { Temps } from './helpers/cli.js';
import { EventQueue } from './helpers/events.js';

const ROOT = join(import.meta.dirname, '..');
const SESSION = join(ROOT, 'examples', 'loop-controller', 'session');
/** a settle time no loaded machine reaches between a partial write and its end */
const NEVER_SETTLES = 10 * 60 * 1000;

const temps = new Temps();
const watches: Watch[] = [];
afterEach(async () => {
  for (const w of watches.splice(0)) await w.close();
});
afterAll(() => temps.cleanup());

/** A copy of examples/loop-controller without its state file. */
const project = () => temps.copyOf(join(ROOT, 'examples', 'loop-controller'), 'loop-state.json', 'session');

async function watching(file: string, options: { settleMs?: number; record?: string } = {}) {
  const events = new EventQueue<WatchEvent>();
  const { ctx } = await watchContext(file, { project: dirname(file) });
  const watch = await startWatch(ctx, {
    settleMs: options.settleMs ?? NEVER_SETTLES,
    onEvent: (e) => events.push(e),
    ...(options.record ? { record: options.record } : {}),
  });
  watches.push(watch);
  return { events, watch };
}

const versionEvent = (n: number) => (e: WatchEvent) => (e.type === 'version' || e.type === 'broken') && e.n === n;

const modes = ['atomic rename', 'truncate and write', 'partial write', 'delete and re-create', 'write again'] as const;

describe('watch: an agent writes its state file', () => {
  it('in every way agents write files: each version seen once, every legal move passes, the illegal one reported once at its version', async () => {
    const dir = project();
    const file = join(dir, 'loop-state.json');
    const record = join(temps.dir(), 'run.jsonl');
    const { events } = await watching(file, { record });
    await events.next((e) => e.type === 'waiting', 'waiting for the file to be created');
    const versions = readdirSync(SESSION).sort();
    expect(versions).toHaveLength(18);
    const seen: Extract<WatchEvent, { type: 'version' }>[] = [];
    for (const [i, name] of versions.entries()) {
      const text = readFileSync(join(SESSION, name), 'utf8');
      const mode = i === 0 ? 'write again' : modes[i % modes.length]!;
      switch (mode) {
        case 'atomic rename':
          writeFileSync(`${file}.tmp-${i}`, text);
          renameSync(`${file}.tmp-${i}`, file);
          break;
        case 'truncate and write':
          truncateSync(file, 0);
          await events.next((e) => e.type === 'incomplete', `the empty file before version ${i + 1}`);
          writeFileSync(file, text);
          break;
        case 'partial write':
          writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
          await events.next((e) => e.type === 'incomplete', `half of version ${i + 1}`);
          appendFileSync(file, text.slice(Math.floor(text.length / 2)));
          break;
        case 'delete and re-create':
          unlinkSync(file);
          await events.next((e) => e.type === 'removed', `the deletion before version ${i + 1}`);
          writeFileSync(file, text);
          break;
        case 'write again':
          writeFileSync(file, text);
          // the same content once more: no new version
          writeFileSync(file, text);
          break;
      }
      const e = await events.next(versionEvent(i + 1), `version ${i + 1} (${mode})`);
      expect(e.type, `version ${i + 1} (${mode})`).toBe('version');
      seen.push(e as Extract<WatchEvent, { type: 'version' }>);
    }
    expect(seen.map((e) => e.n)).toEqual(versions.map((_, i) => i + 1));
    const problems = seen.flatMap((e) =>
      e.diagnostics.map((d) => ({ version: e.n, code: d.code, line: d.line, column: d.column, message: d.message })),
    );
    expect(problems).toEqual([
      {
        version: 9,
        code: 'trace-undeclared-transition',
        line: 7,
        column: 12,
        message: "The run moved from 'loop-implement' to 'loop-verify', which is not a declared transition",
      },
    ]);
    expect(seen.map((e) => e.states.join())).toEqual([
      'loop-init',
      'loop-scaffold',
      'loop-implement',
      'loop-test',
      'loop-verify',
      'loop-failed',
      'loop-retry',
      'loop-implement',
      'loop-verify',
      'loop-implement',
      'loop-test',
      'loop-verify',
      'loop-validate',
      'loop-document',
      'loop-review',
      'loop-ship',
      'loop-ship',
      'loop-complete',
    ]);
    expect(seen.map((e) => e.ended)).toEqual([...versions.map(() => false).slice(1), true]);
    // no version was seen twice, none is pending: every event after the last version is not a version
    expect(events.all().filter((e) => e.type === 'version' || e.type === 'broken')).toHaveLength(18);

    // the recorded run replays with `trace`: the same finding, at the line of version 9
    const lines = readFileSync(record, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(18);
    expect(JSON.parse(lines[8]!)).toEqual({ state: 'loop-verify', event: 'version 9' });
    const replay = await checkTrace(record, { project: dir });
    expect(replay.diagnostics.map((d) => [d.code, d.line])).toEqual([['trace-undeclared-transition', 9]]);
  });

  it('a file that stays broken is reported once, after it settled; the next version is judged from the last state read', async () => {
    const dir = project();
    const file = join(dir, 'loop-state.json');
    const v1 = readFileSync(join(SESSION, '01-init.json'), 'utf8');
    writeFileSync(file, v1);
    const { events } = await watching(file, { settleMs: 200 });
    await events.next(versionEvent(1), 'the file as it was');
    writeFileSync(file, '{ "state": "SCAFFOLD", ');
    const broken = await events.next(versionEvent(2), 'the broken version');
    expect(broken.type).toBe('broken');
    expect(broken.type === 'broken' && broken.diagnostics.map((d) => [d.code, d.messageId, d.line])).toEqual([
      ['state-file-malformed', 'syntax', 1],
    ]);
    // the next version: loop-init → loop-scaffold is declared (the broken version told no state)
    writeFileSync(file, readFileSync(join(SESSION, '02-scaffold.json'), 'utf8'));
    const next = await events.next(versionEvent(3), 'the repaired version');
    expect(next.type === 'version' && [next.from, next.states, next.diagnostics]).toEqual([['loop-init'], ['loop-scaffold'], []]);
    expect(events.all().filter((e) => e.type === 'broken')).toHaveLength(1);
  });

  it('each version is checked against the schema, located in the state file; a state the contract does not know is reported', async () => {
    const dir = project();
    const file = join(dir, 'loop-state.json');
    const v1 = JSON.parse(readFileSync(join(SESSION, '01-init.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(v1, null, 2));
    const { events } = await watching(file);
    await events.next(versionEvent(1), 'version 1');
    writeFileSync(file, JSON.stringify({ ...v1, state: 'SCAFOLD', githubIssue: '131' }, null, 2));
    const e = await events.next(versionEvent(2), 'version 2');
    expect(e.type === 'version' && e.diagnostics.map((d) => [d.code, d.pointer, d.line])).toEqual([
      ['state-file-wrong-type', '/githubIssue', 4],
      ['state-file-unknown-state', '/state', 7],
    ]);
    expect(e.type === 'version' && e.step).toBe(null);
    // the next readable version is judged from the last state read: loop-init → loop-implement is not declared
    writeFileSync(file, JSON.stringify({ ...v1, state: 'IMPLEMENT' }, null, 2));
    const f = await events.next(versionEvent(3), 'version 3');
    expect(f.type === 'version' && f.diagnostics.map((d) => d.message)).toEqual([
      "The run moved from 'loop-init' to 'loop-implement', which is not a declared transition",
    ]);
  });
});
