/**
 * What rules read (RuleMeta.reads, engine/reads.ts) and the incremental project phase it allows:
 * every core rule declares its reads; a rule that reads what it did not declare fails (the whole
 * suite runs with LOOPKIT_CHECK_READS=1, vitest.config.ts, so every fixture of every rule holds its
 * declaration); a session re-runs a rule only when what it reads changed, and what it holds after
 * each kind of edit is what a fresh check says.
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

describe('local rules (meta.local)', () => {
  const FIXTURES = join(ROOT, 'fixtures');
  /** The projects a local rule is held on: the invalid cases of the local rules, the fixture projects and the examples. */
  function projects(codes: readonly string[]): string[] {
    const out: string[] = [];
    for (const code of codes) {
      const dir = join(FIXTURES, 'rules', code, 'invalid');
      if (existsSync(dir)) for (const c of readdirSync(dir).sort()) out.push(join(dir, c));
    }
    for (const p of readdirSync(join(FIXTURES, 'projects')).sort()) out.push(join(FIXTURES, 'projects', p));
    out.push(join(ROOT, 'examples', 'loop'), join(ROOT, 'examples', 'loop-controller'));
    return out;
  }

  /**
   * Each skill's SKILL.md body is taken away and given back, in a session: after each edit the
   * session (which runs a local rule over the edited skill only) must hold what a fresh check says.
   * The codes whose findings differ.
   */
  async function differences(ruleSet: readonly Rule[], roots: readonly string[]): Promise<Set<string>> {
    const wrong = new Set<string>();
    const { lint: engineLint } = await import('../src/engine/run.js');
    const line = (d: { code: string; file: string; line: number | null; column: number | null; message: string; severity: string }) =>
      `${d.code}\t${d.file}:${d.line}:${d.column} ${d.severity} ${d.message}`;
    for (const root of roots) {
      if (!statSync(root).isDirectory()) continue;
      let session: ProjectSession;
      try {
        session = await ProjectSession.open({ root, ruleSet, concurrency: 'off' });
      } catch {
        continue;
      }
      const first = session.state.check;
      if (!first) continue;
      const overlay = new Map<string, string>();
      for (const skill of first.project.skills) {
        const text = (path: string) => {
          const read = session.read(path);
          return 'text' in read ? read.text : null;
        };
        const skillText = text(skill.skillFile.path);
        if (skillText === null) continue;
        const end = skillText.startsWith('---\n') ? skillText.indexOf('\n---', 4) : -1;
        const loopPath = `${skill.dir === '' ? '' : `${skill.dir}/`}LOOP.md`;
        const loopText = text(loopPath);
        const edits: [string, string, string][] = [
          // the body taken away
          [skill.skillFile.path, `${end > 0 ? skillText.slice(0, end + 4) : ''}\n# Bare\n\nNothing here.\n`, skillText],
          // another name (what other skills' handoffs and the graph name)
          [skill.skillFile.path, skillText.replace(/^name:\s*(.+)$/mu, 'name: $1-renamed'), skillText],
        ];
        // the contract without its transitions
        if (loopText !== null) edits.push([loopPath, loopText.replace(/^.*(transition|→|->).*$/gmu, ''), loopText]);
        for (const [path, changed, original] of edits) {
          if (changed === original) continue;
          for (const next of [changed, original]) {
            overlay.set(path, next);
            const got = (await session.setText(path, next)).check;
            if (!got) continue;
            const want = await engineLint({ root, ruleSet, overlay, concurrency: 'off' }).catch(() => null);
            if (!want) continue;
            const a = got.diagnostics.map(line).sort();
            const b = want.diagnostics.map(line).sort();
            for (const x of a) if (!b.includes(x)) wrong.add(x.split('\t')[0]!);
            for (const x of b) if (!a.includes(x)) wrong.add(x.split('\t')[0]!);
          }
        }
      }
    }
    return wrong;
  }

  const local = coreRules.filter((r) => r.meta.local);

  it('a local rule is declared only where it checks each skill alone (scope skill, a project part)', () => {
    for (const r of local) {
      expect(r.meta.scope, r.meta.code).toBe('skill');
      expect(r.check, r.meta.code).toBeDefined();
    }
  });

  it('after a skill is edited, the session that ran each local rule over that skill alone holds what a fresh check says', async () => {
    expect(local.length).toBeGreaterThan(0);
    const wrong = await differences(coreRules, projects(local.map((r) => r.meta.code)));
    expect([...wrong].sort()).toEqual([]);
  }, 600_000);

  it('an edit of a file another skill links re-runs the local rules for that skill too (a heading it links to)', async () => {
    const skill = (name: string, body: string) =>
      `---\nname: ${name}\ndescription: Does ${name} work. Use when ${name} is asked for.\n---\n\n# ${name}\n\n${body}\n`;
    const root = temps.project({
      'skills/alpha/SKILL.md': skill('alpha', 'Follow [the steps of beta](../beta/SKILL.md#the-steps).'),
      'skills/beta/SKILL.md': skill('beta', '## The steps\n\nDo them.'),
    });
    const session = await ProjectSession.open({ root, ruleSet: coreRules, concurrency: 'off' });
    const anchors = (ds: readonly { code: string; file: string }[]) =>
      ds.filter((d) => d.code === 'skill-broken-anchor').map((d) => d.file);
    expect(anchors(session.state.check!.diagnostics)).toEqual([]);
    const renamed = skill('beta', '## Steps\n\nDo them.');
    const state = await session.setText('skills/beta/SKILL.md', renamed);
    const want = await lint({ root, overlay: new Map([['skills/beta/SKILL.md', renamed]]), concurrency: 'off' });
    expect(anchors(want.diagnostics)).toEqual(['skills/alpha/SKILL.md']);
    expect(anchors(state.check!.diagnostics)).toEqual(['skills/alpha/SKILL.md']);
  });

  it.skipIf(!process.env.LOOPKIT_FIND_LOCAL)(
    '(LOOPKIT_FIND_LOCAL=1) which rules could be local',
    async () => {
      const candidates = coreRules.filter((r) => r.meta.scope === 'skill' && r.check);
      const ruleSet = coreRules.map((r) => (candidates.includes(r) ? { ...r, meta: { ...r.meta, local: true } } : r));
      const wrong = await differences(ruleSet, projects(candidates.map((r) => r.meta.code)));
      console.log(
        `LOCAL ${candidates
          .map((r) => r.meta.code)
          .filter((c) => !wrong.has(c))
          .join(' ')}`,
      );
      console.log(`NOT-LOCAL ${[...wrong].sort().join(' ')}`);
    },
    1_800_000,
  );
});
