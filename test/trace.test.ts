/**
 * `loopkit trace`: the streaming line reader, the sample traces of both examples, the bound on
 * listed diagnostics, and long logs (a million steps; a log over 100 MB with a line too long to
 * keep) checked in a heap far smaller than the log.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTrace } from '../src/commands/trace.js';
import { readLines, type LineRead } from '../src/parse/lines.js';
import { MAX_SHOWN } from '../src/runtime/codes.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'loopkit.js');
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'loopkit-trace-'));
  temps.push(d);
  return d;
}

describe('reading a log line by line', () => {
  const read = (bytes: Buffer, chunk: number, maxLine = 1024): LineRead[] => {
    const file = join(tempDir(), 'log');
    writeFileSync(file, bytes);
    const out: LineRead[] = [];
    readLines(file, (l) => out.push(l), { chunk, maxLine });
    return out;
  };

  it('gives the same lines whatever the chunk size: CRLF, a BOM, blank lines, no final line break, multi-byte characters', () => {
    const text = '\uFEFFone\r\ntwo\n\nthr€e\n\n  four  ';
    for (let chunk = 1; chunk <= 12; chunk++) {
      expect(read(Buffer.from(text), chunk), `chunk ${chunk}`).toEqual([
        { line: 1, text: 'one' },
        { line: 2, text: 'two' },
        { line: 3, text: '' },
        { line: 4, text: 'thr€e' },
        { line: 5, text: '' },
        { line: 6, text: '  four  ' },
      ]);
    }
  });

  it('skips a line longer than the limit without keeping it, and reports lines that are not UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from(`a\n${'x'.repeat(50)}\nb\n`),
      Buffer.from([0x7b, 0xff, 0x7d, 0x0a]),
      Buffer.from('c'),
      Buffer.from('y'.repeat(40)),
    ]);
    for (const chunk of [1, 3, 7, 16, 64, 4096]) {
      expect(read(bytes, chunk, 20), `chunk ${chunk}`).toEqual([
        { line: 1, text: 'a' },
        { line: 2, problem: 'tooLong' },
        { line: 3, text: 'b' },
        { line: 4, problem: 'notUtf8' },
        { line: 5, problem: 'tooLong' },
      ]);
    }
    expect(read(Buffer.from(''), 4)).toEqual([]);
  });
});

describe('the sample traces of the examples', () => {
  const SAMPLES: { file: string; expected: [string, number, number][] }[] = [
    { file: 'examples/loop-controller/samples/trace-valid.jsonl', expected: [] },
    { file: 'examples/loop/samples/trace-valid.jsonl', expected: [] },
    { file: 'examples/loop/samples/trace-running.jsonl', expected: [['trace-still-running', 4, 11]] },
    {
      file: 'examples/loop-controller/samples/trace-invalid.jsonl',
      expected: [
        ['trace-undeclared-transition', 4, 11],
        ['trace-halt-bound-exceeded', 20, 11],
        ['trace-unknown-state', 26, 11],
      ],
    },
    {
      file: 'examples/loop/samples/trace-invalid.jsonl',
      expected: [
        ['trace-halt-bound-exceeded', 13, 11],
        ['trace-malformed-step', 14, 95],
        ['trace-undeclared-transition', 16, 11],
      ],
    },
  ];
  for (const s of SAMPLES) {
    it(`${s.file}: ${s.expected.length === 0 ? 'valid' : s.expected.map((e) => e[0]).join(', ')}`, async () => {
      const report = await checkTrace(join(ROOT, s.file));
      expect(report.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual(s.expected);
    });
  }
});

describe('long runs', () => {
  it(`lists at most ${MAX_SHOWN} problems of a code, and counts the rest in one more`, async () => {
    const dir = tempDir();
    const lines = Array.from({ length: 250 }, (_, i) => JSON.stringify({ state: i % 2 === 0 ? 'loop-init' : 'loop-complete' }));
    writeFileSync(join(dir, 'trace.jsonl'), `${lines.join('\n')}\n`);
    const report = await checkTrace(join(dir, 'trace.jsonl'), { project: join(ROOT, 'examples', 'loop-controller') });
    const undeclared = report.diagnostics.filter((d) => d.code === 'trace-undeclared-transition');
    expect(undeclared).toHaveLength(MAX_SHOWN + 1);
    expect(undeclared[MAX_SHOWN]!.message).toBe(
      '149 more trace-undeclared-transition problems are not listed (the first of them at line 102)',
    );
    expect(undeclared[MAX_SHOWN]!.line).toBe(102);
    expect(report.errors).toBe(MAX_SHOWN + 1);
  });

  it('a log of broken lines describes only the problems it lists, in a 24 MB heap', () => {
    const dir = tempDir();
    const file = join(dir, 'trace.jsonl');
    const fd = openSync(file, 'w');
    let batch = '';
    for (let i = 0; i < 100_000; i++) {
      batch += `{"state": "nope-${i % 7}"}\nnot json ${i}\n`;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, batch);
    closeSync(fd);
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=24', BIN, 'trace', file, '--project', join(ROOT, 'examples', 'loop-controller'), '--json'],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as { summary: { errors: number }; diagnostics: { code: string; message: string }[] };
    expect(doc.summary.errors).toBe(2 * (MAX_SHOWN + 1));
    expect(doc.diagnostics.filter((d) => d.message.includes('more')).map((d) => d.message)).toEqual([
      '99900 more trace-unknown-state problems are not listed (the first of them at line 201)',
      '99900 more trace-malformed-step problems are not listed (the first of them at line 202)',
    ]);
  });

  it('a log over 100 MB (a million steps and a line of 3 MiB) is streamed: checked in a 24 MB heap, problems located', () => {
    const dir = tempDir();
    const file = join(dir, 'trace.jsonl');
    const fd = openSync(file, 'w');
    let line = 0;
    const write = (s: string) => {
      writeSync(fd, s);
      line += s.split('\n').length - 1;
    };
    write('{"state": "loop-init", "iteration": 0}\n{"state": "loop-scaffold", "iteration": 1}\n');
    const cycle = (i: number) =>
      `{"state": "loop-implement", "skill": "controlling-loops", "agent": "implement", "iteration": ${i}}\n` +
      `{"state": "loop-test", "skill": "controlling-loops", "agent": "test-generation", "iteration": ${i}}\n` +
      `{"state": "loop-verify", "skill": "controlling-loops", "agent": "code-verification", "iteration": ${i}}\n`;
    let batch = '';
    for (let i = 2; i < 400_000; i++) {
      batch += cycle(i);
      if (batch.length > 1 << 20) {
        write(batch);
        batch = '';
      }
    }
    write(batch);
    const longLine = line + 1;
    write(`{"state": "loop-implement", "event": "${'x'.repeat(3 * 1024 * 1024)}"}\n`);
    write('{"state": "loop-validate"}\n{"state": "loop-done"}\n');
    closeSync(fd);
    expect(statSync(file).size).toBeGreaterThan(100 * 1024 * 1024);
    expect(line).toBeGreaterThan(1_000_000);
    // the heap is far smaller than the log: reading it whole would run out of memory
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=24', BIN, 'trace', file, '--project', join(ROOT, 'examples', 'loop-controller'), '--json'],
      {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      verifications: number;
      diagnostics: { code: string; location: { line: number; column: number } }[];
    };
    expect(doc.verifications).toBe(line - 1);
    expect(doc.diagnostics.map((d) => [d.code, d.location.line, d.location.column])).toEqual([
      ['trace-malformed-step', longLine, 1],
      ['trace-unknown-state', longLine + 2, 11],
    ]);
  });
});
