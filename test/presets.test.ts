/**
 * The default set of a plain Agent Skills project holds only what a user acts on: a heuristic is in
 * it (on under agent-skills) exactly when its precision on the held-out rounds, borderline counted as
 * false, is at least 90 % on enough labels (scripts/heuristic-precision.mjs, from accuracy/labels.tsv);
 * every other heuristic is off there and on in `strict`. The thresholds the figures assume are the
 * rules' own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESETS, STRICT_ONLY } from '../src/config/presets.js';
import { presetSeverity } from '../src/engine/severity.js';
import { rules } from '../src/rules/index.js';
import { REPORTED_OVER as BODY_TOKENS } from '../src/rules/skill-body-too-many-tokens.js';
import { REPORTED_OVER as METADATA_TOKENS } from '../src/rules/skill-metadata-too-many-tokens.js';
import { MAX_LINES as DISCLOSURE_LINES } from '../src/rules/skill-no-progressive-disclosure.js';
import { readTsv } from '../scripts/accuracy.mjs';
import {
  BAR,
  MIN_LABELS,
  THRESHOLDS,
  decisions,
  withDefaultSetTable,
  type Label,
  type Repository,
} from '../scripts/heuristic-precision.mjs';
import { ROOT, run } from './helpers/cli.js';

const labels = readTsv(join(ROOT, 'accuracy', 'labels.tsv'), ['repo', 'file', 'line', 'code', 'verdict']) as unknown as Label[];
const repositories = readTsv(join(ROOT, 'accuracy', 'repositories.tsv'), ['repo', 'commit', 'set']) as unknown as Repository[];
const rows = decisions(
  rules.map((r) => r.meta),
  labels,
  repositories,
);
const under = (preset: string, code: string) =>
  presetSeverity(rules.find((r) => r.meta.code === code)!.meta, { presets: [preset], auto: false });

describe('the default set of agent-skills', () => {
  it('holds a heuristic exactly when it measured at least 90 % on the held-out rounds', () => {
    expect(rows.length).toBe(rules.filter((r) => r.meta.certainty === 'heuristic').length);
    for (const row of rows) {
      const on = under('agent-skills', row.code) !== 'off';
      expect(on, `${row.code}: ${row.reason}`).toBe(row.decision === 'default set');
      if (on) {
        expect(row.precision!, row.code).toBeGreaterThanOrEqual(BAR);
        expect(row.n, row.code).toBeGreaterThanOrEqual(MIN_LABELS);
      }
    }
    // a rule the measure keeps out is strict's, and strict has nothing else of its own
    const out = rows.filter((r) => r.decision !== 'default set').map((r) => r.code);
    expect([...STRICT_ONLY].sort()).toEqual(out.filter((c) => under('strict', c) !== 'off').sort());
  });

  it('every definite rule keeps its place: strict adds heuristics only', () => {
    for (const r of rules.filter((x) => x.meta.certainty === 'definite'))
      expect(under('strict', r.meta.code), r.meta.code).toBe(under('agent-skills', r.meta.code));
  });

  it('strict turns every rule of its list on, a suggestion as info and nothing as an error', () => {
    for (const code of STRICT_ONLY) {
      expect(under('agent-skills', code), code).toBe('off');
      expect(['warning', 'info'], code).toContain(under('strict', code));
    }
    expect(PRESETS.strict!.heuristicErrors).toBe(false);
    expect(PRESETS.strict!.skillsEverywhere).toBe(PRESETS['agent-skills']!.skillsEverywhere);
  });

  it('is measured at the thresholds the rules have', () => {
    expect(THRESHOLDS['skill-metadata-too-many-tokens']!.reportedOver).toBe(METADATA_TOKENS);
    expect(THRESHOLDS['skill-body-too-many-tokens']!.reportedOver).toBe(BODY_TOKENS);
    expect(THRESHOLDS['skill-no-progressive-disclosure']!.reportedOver).toBe(DISCLOSURE_LINES);
  });

  it('is the table docs/presets.md shows (run `npm run docs`)', () => {
    const page = readFileSync(join(ROOT, 'docs', 'presets.md'), 'utf8');
    expect(withDefaultSetTable(page, rows, (code, preset) => under(preset, code))).toBe(page);
    for (const code of STRICT_ONLY) expect(page, code).toMatch(new RegExp(`\\| \`${code}\` \\|[^\\n]*\\| off \\| (warning|info) \\|`, 'u'));
  });
});

describe('strict, chosen by name', () => {
  const project = 'fixtures/projects/seed-skills';

  it('--preset strict reports what agent-skills leaves out, as warnings at most', async () => {
    const json = async (args: string[]) =>
      JSON.parse((await run([project, '--no-cache', '--format', 'json', ...args])).stdout) as {
        diagnostics: { code: string; severity: string }[];
      };
    const plain = (await json([])).diagnostics;
    const strict = (await json(['--preset', 'strict'])).diagnostics;
    expect(plain.some((d) => STRICT_ONLY.includes(d.code))).toBe(false);
    expect(strict.some((d) => STRICT_ONLY.includes(d.code))).toBe(true);
    expect(strict.filter((d) => STRICT_ONLY.includes(d.code)).every((d) => d.severity !== 'Error')).toBe(true);
    // the findings of the default set are strict's too
    for (const d of plain) expect(strict).toContainEqual(d);
  });
});
