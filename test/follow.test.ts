/**
 * `loopkit trace --follow`: a log that grows, as `tail -F` follows it — lines appended (a line read
 * only when its line break is written), the log truncated in place, the log rotated (renamed away and
 * created again), deleted and created again. On real file-system events in a temporary directory;
 * every test waits on the follower's lines and events, never on time.
 */
import { appendFileSync, renameSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LogFollower, type FollowEvent } from '../src/live/log-follower.js';
import type { LineRead } from '../src/parse/lines.js';
import { Temps } from './helpers/cli.js';
import { EventQueue } from './helpers/events.js';

const temps = new Temps();
const followers: LogFollower[] = [];
afterEach(async () => {
  for (const f of followers.splice(0)) await f.close();
});
afterAll(() => temps.cleanup());
const dir = () => temps.dir('loopkit-follow-');

type Seen = { line: LineRead } | { event: FollowEvent };

async function follow(file: string) {
  const seen = new EventQueue<Seen>();
  const follower = new LogFollower({ file, onLine: (line) => seen.push({ line }), onEvent: (event) => seen.push({ event }) });
  followers.push(follower);
  await follower.start();
  return { seen, follower };
}

const text = (t: string) => (s: Seen) => 'line' in s && 'text' in s.line && s.line.text === t;
const event = (e: FollowEvent) => (s: Seen) => 'event' in s && s.event === e;
const lines = (q: EventQueue<Seen>) => q.all().flatMap((s) => ('line' in s ? [s.line] : []));

describe('following a log', () => {
  it('reads what is there, then each line as its line break is written; a last line without one when following stops', async () => {
    const file = join(dir(), 'run.jsonl');
    writeFileSync(file, 'one\ntwo\n');
    const { seen, follower } = await follow(file);
    await seen.next(text('two'), 'the lines already there');
    appendFileSync(file, 'thr');
    appendFileSync(file, 'ee\nfo');
    await seen.next(text('three'), 'a line written in two parts');
    appendFileSync(file, 'ur');
    await follower.close();
    expect(lines(seen)).toEqual([
      { line: 1, text: 'one' },
      { line: 2, text: 'two' },
      { line: 3, text: 'three' },
      { line: 4, text: 'four' },
    ]);
  });

  it('a log truncated in place is read again from its start, with line numbers from 1', async () => {
    const file = join(dir(), 'run.jsonl');
    writeFileSync(file, 'a\nb\nc\n');
    const { seen } = await follow(file);
    await seen.next(text('c'), 'the first lines');
    truncateSync(file, 0);
    await seen.next(event('truncated'), 'the truncation');
    appendFileSync(file, 'd\n');
    await seen.next(text('d'), 'the first line after the truncation');
    expect(lines(seen).slice(3)).toEqual([{ line: 1, text: 'd' }]);
  });

  it('a rotated log is read to its end, then the new file from its start', async () => {
    const d = dir();
    const file = join(d, 'run.jsonl');
    writeFileSync(file, 'old-1\n');
    const { seen } = await follow(file);
    await seen.next(text('old-1'), 'the first line');
    appendFileSync(file, 'old-2\n');
    renameSync(file, join(d, 'run.jsonl.1'));
    writeFileSync(file, 'new-1\n');
    await seen.next(text('new-1'), 'the first line of the new file');
    expect(lines(seen)).toEqual([
      { line: 1, text: 'old-1' },
      { line: 2, text: 'old-2' },
      { line: 1, text: 'new-1' },
    ]);
    // told as a rotation, or (when the follower looked between the rename and the new file) as a deletion
    expect(seen.all().some((s) => 'event' in s && (s.event === 'rotated' || s.event === 'removed'))).toBe(true);
  });

  it('a log that does not exist yet is waited for; a deleted one too', async () => {
    const file = join(dir(), 'run.jsonl');
    const { seen } = await follow(file);
    await seen.next(event('waiting'), 'waiting for the log');
    writeFileSync(file, 'first\n');
    await seen.next(text('first'), 'the first line of the new log');
    unlinkSync(file);
    await seen.next(event('removed'), 'the deletion');
    writeFileSync(file, 'again\n');
    await seen.next(text('again'), 'the first line of the re-created log');
    expect(lines(seen)).toEqual([
      { line: 1, text: 'first' },
      { line: 1, text: 'again' },
    ]);
  });
});
