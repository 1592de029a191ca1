/**
 * `loopkit state`: the acceptance test of issue 12 — the real state
 * files of the two source loops (seed 002's loop-state.json, seed 003's .loop/state.json),
 * transcribed into examples/, validate against the examples' schema tables, and breaking any one
 * of their fields gives a diagnostic located at it. Plus the sample files of both examples.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkState } from '../src/api/state.js';
import { jsonPointer } from '../src/parse/data.js';

const ROOT = join(import.meta.dirname, '..');
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** Every value of a JSON document with its path, depth first. */
function* values(node: unknown, path: (string | number)[] = []): Generator<[(string | number)[], unknown]> {
  yield [path, node];
  if (Array.isArray(node)) for (let i = 0; i < node.length; i++) yield* values(node[i], [...path, i]);
  else if (node !== null && typeof node === 'object') for (const [k, v] of Object.entries(node)) yield* values(v, [...path, k]);
}

/** A copy of `doc` with the value at `path` replaced (or deleted with `undefined`). */
function changed(doc: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent = copy;
  for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

/** A value of another type than `v`: whatever the schema row says, it no longer fits. */
function broken(v: unknown): unknown {
  if (typeof v === 'string') return 12345;
  if (typeof v === 'number') return 'not a number';
  if (typeof v === 'boolean') return 'not a boolean';
  return 'not a collection';
}

const SEEDS = [
  { name: "seed 002's loop-state.json", project: 'examples/loop-controller', file: 'loop-state.json', skill: 'controlling-loops' },
  { name: "seed 003's .loop/state.json", project: 'examples/loop', file: '.loop/state.json', skill: 'iterating-autonomously' },
];

describe('acceptance: the real state files of the source loops', () => {
  for (const seed of SEEDS) {
    const path = join(ROOT, seed.project, seed.file);
    const doc = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    const dir = mkdtempSync(join(tmpdir(), 'loopkit-state-'));
    temps.push(dir);
    const check = async (value: unknown) => {
      const file = join(dir, 'state.json');
      writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
      return checkState(file, { project: join(ROOT, seed.project), skill: seed.skill });
    };

    it(`${seed.name} validates against the schema table of ${seed.skill}`, async () => {
      const report = await checkState(path, { skill: seed.skill });
      expect(report.diagnostics).toEqual([]);
      expect(report.verifications).toBeGreaterThan(20);
    });

    it(`${seed.name}: breaking any one value gives an error located at it`, async () => {
      const all = [...values(doc)].filter(([p]) => p.length > 0);
      expect(all.length).toBeGreaterThan(20);
      for (const [p, v] of all) {
        const report = await check(changed(doc, p, broken(v)));
        const pointer = jsonPointer(p);
        const at = report.diagnostics.filter((d) => d.pointer === pointer && d.severity === 'error');
        expect(
          at.map((d) => d.code),
          `${pointer} = ${JSON.stringify(broken(v))}`,
        ).not.toEqual([]);
        expect(at[0]!.line).toBeGreaterThan(0);
        expect(at[0]!.column).toBeGreaterThan(0);
      }
    });

    it(`${seed.name}: removing any required field gives an error naming it`, async () => {
      let removed = 0;
      for (const [p] of [...values(doc)].filter(([p]) => p.length > 0 && typeof p[p.length - 1] === 'string')) {
        const report = await check(changed(doc, p, undefined));
        const missing = report.diagnostics.filter((d) => d.code === 'state-file-missing-field');
        // optional fields may go; every other one is reported by its pointer
        if (missing.length === 0) continue;
        removed++;
        expect(missing.map((d) => d.pointer)).toEqual([jsonPointer(p)]);
      }
      expect(removed).toBeGreaterThan(10);
    });
  }

  it('the stage names of the files map to the states of the contracts', async () => {
    const controller = JSON.parse(readFileSync(join(ROOT, 'examples/loop-controller/loop-state.json'), 'utf8')) as Record<string, unknown>;
    const dir = mkdtempSync(join(tmpdir(), 'loopkit-state-'));
    temps.push(dir);
    const file = join(dir, 'state.json');
    for (const [stage, ok] of [
      ['IMPLEMENT', true],
      ['BLOCKED', true],
      ['loop-implement', false],
      ['IMPLEMENTING', false],
    ] as const) {
      writeFileSync(file, JSON.stringify({ ...controller, state: stage }));
      const report = await checkState(file, { project: join(ROOT, 'examples/loop-controller') });
      expect(
        report.diagnostics.map((d) => d.code),
        stage,
      ).toEqual(ok ? [] : ['state-file-unknown-state']);
    }
  });
});

describe('the sample state files of the examples', () => {
  const SAMPLES: { file: string; expected: [string, number, number][] }[] = [
    { file: 'examples/loop-controller/samples/state-blocked.yaml', expected: [] },
    { file: 'examples/loop/samples/state-complete.yaml', expected: [] },
    {
      file: 'examples/loop-controller/samples/state-invalid.json',
      expected: [
        ['state-file-wrong-type', 4, 18],
        ['state-file-unknown-state', 7, 12],
        ['state-file-wrong-type', 8, 21],
        ['state-file-missing-field', 9, 19],
        ['state-file-invalid-value', 16, 29],
        ['state-file-unknown-state', 24, 18],
        ['state-file-wrong-type', 31, 31],
        ['state-file-unknown-field', 35, 3],
      ],
    },
    {
      file: 'examples/loop/samples/state-invalid.json',
      expected: [
        ['state-file-missing-field', 1, 1],
        ['state-file-wrong-type', 5, 19],
        ['state-file-invalid-value', 6, 62],
        ['state-file-wrong-type', 9, 18],
        ['state-file-wrong-type', 12, 16],
        ['state-file-unknown-state', 13, 13],
        ['state-file-missing-field', 14, 21],
        ['state-file-unknown-field', 15, 5],
      ],
    },
  ];
  for (const s of SAMPLES) {
    it(`${s.file}: ${s.expected.length === 0 ? 'valid' : 'the expected codes at the expected places'}`, async () => {
      const report = await checkState(join(ROOT, s.file));
      expect(report.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual(s.expected);
    });
  }
});
