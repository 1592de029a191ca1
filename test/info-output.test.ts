/**
 * Info findings are suggestions: the text report of `check` counts them in its summary line, which
 * says how to see them, and prints them only with --verbose; the machine formats (JSON, SARIF, …)
 * keep every one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** A marketplace of `n` plugins, one skill each, whose names are not gerunds (info under the config below). */
function marketplace(n: number): string {
  const root = temps.dir('loopkit-info-');
  mkdirSync(join(root, '.claude-plugin'), { recursive: true });
  writeFileSync(join(root, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'm', plugins: [] }));
  for (let i = 0; i < n; i++) {
    const dir = join(root, 'plugins', `p${i}`, 'skills', `report-${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      `---\nname: report-${i}\ndescription: Writes report ${i} of a project. Use when report ${i} is due.\n---\n# Report\n\nWrite the report.\n`,
    );
  }
  writeFileSync(join(root, '.loopkit.yaml'), 'extends: agent-skills\nrules:\n  skill-name-not-gerund: info\n');
  return root;
}

const INFO_LINE = /: info: /u;

describe('info findings in the text report of check', () => {
  const root = marketplace(40);

  it('are counted in the summary line, which says how to see them, and not printed', async () => {
    const r = await run([root, '--no-cache', '--no-color']);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').filter((l) => INFO_LINE.test(l))).toEqual([]);
    expect(r.stdout).toMatch(/^PASS {2}0 errors, 0 warnings, 40 info \(not shown: run with --verbose to see them\) {2}· {2}40 skills/mu);
  });

  it('are printed with --verbose', async () => {
    const r = await run([root, '--no-cache', '--no-color', '--verbose']);
    expect(r.stdout.split('\n').filter((l) => INFO_LINE.test(l))).toHaveLength(40);
    expect(r.stdout).toMatch(/^PASS {2}0 errors, 0 warnings, 40 info {2}·/mu);
  });

  it('are kept by the JSON and SARIF reports', async () => {
    const json = JSON.parse((await run([root, '--no-cache', '--format', 'json'])).stdout) as { diagnostics: { severity: string }[] };
    expect(json.diagnostics.filter((d) => d.severity === 'Info')).toHaveLength(40);
    const sarif = JSON.parse((await run([root, '--no-cache', '--format', 'sarif'])).stdout) as { runs: { results: { level: string }[] }[] };
    expect(sarif.runs[0]!.results.filter((x) => x.level === 'note')).toHaveLength(40);
  });

  it('a report with none says nothing of them', async () => {
    const r = await run(['fixtures/projects/clean', '--no-cache', '--no-color']);
    expect(r.stdout).toContain('PASS  0 errors, 0 warnings, 0 info  ·');
  });
});
