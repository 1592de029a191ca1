/**
 * What rules read (RuleMeta.reads, engine/reads.ts) and the incremental project phase it allows:
 * every core rule declares its reads; a rule that reads what it did not declare fails (the whole
 * suite runs with LOOPKIT_CHECK_READS=1, vitest.config.ts, so every fixture of every rule holds its
 * declaration); a session re-runs a rule only when what it reads changed, and what it holds after
 * each kind of edit is what a fresh check says.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coreRules, lint } from '../src/api/engine.js';
import { READS, type Read } from '../src/engine/reads.js';
import { defineRule, type Rule } from '../src/engine/rule.js';
import { ProjectSession } from '../src/engine/session.js';
import { Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const ROOT = join(import.meta.dirname, '..');

describe('reads', () => {
  it('every core rule declares what its project part reads, in the known terms', () => {
    for (const rule of coreRules) {
      expect(rule.meta.reads, rule.meta.code).toBeDefined();
      for (const r of rule.meta.reads!) expect(READS, `${rule.meta.code}: ${r}`).toContain(r);
    }
  });

  it('a rule that reads what it did not declare crashes in check mode, naming the read', async () => {
    expect(process.env.LOOPKIT_CHECK_READS).toBe('1');
    const sly = defineRule({
      meta: {
        code: 'test-sly',
        defaultSeverity: 'warning',
        certainty: 'definite',
        category: 'plugin',
        description: 'reads sections while declaring frontmatter only',
        scope: 'skill',
        reference: 'new',
        reads: ['frontmatter'],
        messages: { m: { message: '{n} sections' } },
      },
      check(ctx) {
        for (const s of ctx.project.skills) ctx.report({ messageId: 'm', data: { n: s.sections.length }, at: { file: s.skillFile.path } });
      },
    });
    const { lint: engineLint } = await import('../src/engine/run.js');
    const r = await engineLint({
      root: join(ROOT, 'examples', 'loop'),
      ruleSet: [...coreRules, sly],
      only: ['test-sly'],
      concurrency: 'off',
    });
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['internal-error', "Rule test-sly crashed: rule test-sly read skill.sections without declaring 'body' in meta.reads"],
    ]);
  });
});

describe('the incremental project phase', () => {
  /** Spy rules: each counts its runs and reports the number, so a result kept from before shows. */
  function spy(code: string, reads: readonly Read[] | undefined): Rule & { runs: number } {
    const rule = {
      runs: 0,
      meta: {
        code,
        defaultSeverity: 'info' as const,
        certainty: 'definite' as const,
        category: 'plugin' as const,
        description: 'counts its runs',
        scope: 'project' as const,
        reference: 'new' as const,
        ...(reads ? { reads } : {}),
        messages: { ran: { message: 'run {n}' } },
      },
      check(ctx: Parameters<NonNullable<Rule['check']>>[0]) {
        rule.runs++;
        ctx.report({ messageId: 'ran', data: { n: rule.runs }, at: { file: '.loopkit.yaml' } });
      },
    };
    return rule;
  }

  it('re-runs only the rules whose reads changed, and holds what a fresh check says after each kind of edit', async () => {
    const root = temps.dir();
    cpSync(join(ROOT, 'examples', 'loop'), root, { recursive: true });
    const spies = {
      frontmatter: spy('test-frontmatter', ['frontmatter']),
      body: spy('test-body', ['body']),
      loop: spy('test-loop', ['loop', 'graph']),
      all: spy('test-all', undefined),
    };
    const ruleSet = [...coreRules, ...Object.values(spies)];
    const session = await ProjectSession.open({ root, ruleSet, concurrency: 'off' });
    const runs = () => Object.fromEntries(Object.entries(spies).map(([k, s]) => [k, s.runs]));
    expect(runs()).toEqual({ frontmatter: 1, body: 1, loop: 1, all: 1 });

    const skillPath = 'skills/iterating-autonomously/SKILL.md';
    const loopPath = 'skills/iterating-autonomously/LOOP.md';
    const skill = readFileSync(join(root, skillPath), 'utf8');
    const loop = readFileSync(join(root, loopPath), 'utf8');
    const overlay = new Map<string, string>();
    /** Edit a buffer; the session's findings of the core rules must be a fresh check's. */
    const edit = async (path: string, text: string) => {
      overlay.set(path, text);
      const state = await session.setText(path, text);
      const want = await lint({ root, overlay, concurrency: 'off' });
      const core = (
        ds: readonly { code: string; file: string; line: number | null; column: number | null; message: string; severity: string }[],
      ) => ds.filter((d) => !d.code.startsWith('test-')).map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`);
      expect(core(state.check!.diagnostics)).toEqual(core(want.diagnostics));
    };

    // the body of SKILL.md: a section renamed (a core rule's finding comes and goes)
    await edit(skillPath, skill.replace('## Rules', '## Rulez'));
    expect(runs()).toEqual({ frontmatter: 1, body: 2, loop: 1, all: 2 });
    // the frontmatter: the description
    await edit(skillPath, skill.replace('Runs an autonomous iteration loop', 'Runs a loop'));
    expect(runs()).toEqual({ frontmatter: 2, body: 3, loop: 1, all: 3 });
    // the LOOP.md contract: a transition sent elsewhere
    const detour = loop.replace(/transition (\S+) → (\S+)/u, 'transition $1 → $1-detour');
    expect(detour).not.toBe(loop);
    await edit(loopPath, detour);
    expect(runs()).toEqual({ frontmatter: 2, body: 3, loop: 2, all: 4 });
    // and back: what was found before the edits is found again
    await edit(loopPath, loop);
    await edit(skillPath, skill);
    expect(runs()).toEqual({ frontmatter: 3, body: 4, loop: 3, all: 6 });
    // a rule not run again (the last edit was of SKILL.md) reports what it reported then
    const kept = session.state.check!.diagnostics.find((d) => d.code === 'test-loop')!;
    expect(kept.message).toBe('run 3');
  });
});
