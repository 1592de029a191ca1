/** loopkit rules and loopkit explain, end to end. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetSeverity } from '../src/engine/severity.js';
import { rules } from '../src/rules/index.js';
import { noStack, ROOT, run } from './helpers/cli.js';

describe('loopkit rules', () => {
  it('lists every code with its default severity, agent-skills severity, certainty, category, fixability and description', async () => {
    const r = await run(['rules']);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^code +default +agent-skills +certainty +category +fix +checks$/u);
    for (const rule of rules) {
      const line = lines.find((l) => l.startsWith(`${rule.meta.code} `));
      expect(line, rule.meta.code).toBeDefined();
      const agentSkills = presetSeverity(rule.meta, { presets: ['agent-skills'], auto: false });
      expect(line).toMatch(
        new RegExp(` ${rule.meta.defaultSeverity} +${agentSkills} +${rule.meta.certainty} +${rule.meta.category} `, 'u'),
      );
      expect(line!.endsWith(rule.meta.description)).toBe(true);
      expect(/ {2}fix {2}/u.test(line!)).toBe(rule.meta.fixable === true);
    }
    const heuristic = rules.filter((x) => x.meta.certainty === 'heuristic').length;
    expect(r.stdout).toContain(
      `${rules.length} rules, ${rules.filter((x) => x.meta.fixable).length} fixable with --fix, ${heuristic} heuristic.`,
    );
    expect((await run(['rules'])).stdout).toBe(r.stdout);
  });

  it('--json: one object per rule', async () => {
    const list = JSON.parse((await run(['rules', '--json'])).stdout) as {
      code: string;
      aliases: string[];
      defaultSeverity: string;
      presetSeverity: Record<string, string>;
      certainty: string;
      category: string;
      fixable: boolean;
      description: string;
      docs: string;
    }[];
    expect(list.map((x) => x.code)).toEqual(rules.map((x) => x.meta.code));
    const halt = list.find((x) => x.code === 'loop-unknown-halt')!;
    expect(halt).toMatchObject({
      aliases: ['loop-unknown-halt-reason'],
      defaultSeverity: 'warning',
      category: 'language',
      docs: 'docs/rules/loop-unknown-halt.md',
    });
    for (const x of list) expect(typeof x.fixable).toBe('boolean');
    // a heuristic that is an error by default is a warning under agent-skills; a definite error stays one
    expect(list.find((x) => x.code === 'skill-windows-path')).toMatchObject({
      certainty: 'heuristic',
      defaultSeverity: 'error',
      presetSeverity: { 'loop-language': 'error', 'agent-skills': 'warning' },
    });
    expect(list.find((x) => x.code === 'skill-broken-link')).toMatchObject({
      certainty: 'definite',
      presetSeverity: { 'loop-language': 'error', 'agent-skills': 'error' },
    });
    for (const x of list) expect(['definite', 'heuristic']).toContain(x.certainty);
  });
});

describe('loopkit explain', () => {
  it("renders the rule's page: headings without marks, tables as columns, code indented, rule links as commands", async () => {
    const r = await run(['explain', 'loop-section-order']);
    expect(r.status).toBe(0);
    const page = readFileSync(join(ROOT, 'docs', 'rules', 'loop-section-order.md'), 'utf8');
    expect(r.stdout.startsWith('loop-section-order\n══════════════════\n')).toBe(true);
    expect(r.stdout).toContain('\nWhat it checks\n──────────────\n');
    expect(r.stdout).toMatch(/^ {2}Default severity +error$/mu);
    expect(r.stdout).toContain('\n    ## Halt Conditions\n');
    expect(r.stdout).toContain('loop-unknown-section (loopkit explain loop-unknown-section)');
    expect(r.stdout).not.toContain('```');
    // every paragraph line of the page is there
    const prose = page.split('\n').filter((l) => /^[A-Z][a-z]+ [a-z]+ [a-z]+/u.test(l) && !l.includes('['));
    for (const l of prose) expect(r.stdout).toContain(l);
  });

  it('takes an alias; colour only on request', async () => {
    const r = await run(['explain', 'loop-unknown-halt-reason']);
    expect(r.stdout.startsWith('loop-unknown-halt\n')).toBe(true);
    expect(r.stdout).not.toContain('\u001b[');
    expect((await run(['explain', 'loop-unknown-halt', '--color'])).stdout).toContain('\u001b[');
  });

  it('a typo gets a "did you mean", a word the codes that contain it; exit 2', async () => {
    const typo = await run(['explain', 'loop-unknwn-halt']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe("loopkit: error: unknown rule 'loop-unknwn-halt'; did you mean 'loop-unknown-halt'?\n");
    const word = await run(['explain', 'halt']);
    expect(word.status).toBe(2);
    expect(word.stderr).toContain("rules whose code contains 'halt': loop-unknown-halt, skill-l1-missing-halt-conditions");
    const none = await run(['explain', 'zzz']);
    expect(none.stderr).toContain('loopkit rules lists every code');
    noStack(none);
    expect((await run(['explain'])).status).toBe(2);
  });

  it('every rule has a page it can show (in process)', async () => {
    const { explain } = await import('../src/commands/explain.js');
    for (const rule of rules) expect(explain(rule.meta.code, false).startsWith(`${rule.meta.code}\n`), rule.meta.code).toBe(true);
  });
});
