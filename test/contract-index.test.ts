/**
 * The language server's contract index (src/lsp/contract-index.ts), in the test process: after any
 * sequence of edits, the index a session's check gives is the one a fresh session on the same texts
 * gives — although an update indexes again only the skills it changed (each skill's places are kept
 * with its model) and the rest of the project decides which of a skill's candidates count (a
 * backticked name is a state, a skill or nothing; a `halt` word is a halt reason or not).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSession } from '../src/api/engine.js';
import type { SessionCheck } from '../src/engine/session.js';
import { contractIndex, type ContractIndex } from '../src/lsp/contract-index.js';
import { Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

/** loopkit's own example team, with a README that names its skills and a suppression comment in a SKILL.md. */
function team(): string {
  const dir = temps.team(
    'loopkit-index-',
    '# The team\n\n- `writing-stories` writes\n- `running-desk-checks` shows\n- `not-a-skill` nothing\n',
  );
  const skill = join(dir, 'skills', 'running-tdd-loops', 'SKILL.md');
  writeFileSync(
    skill,
    readFileSync(skill, 'utf8').replace('\n---\n', '\n---\n<!-- loopkit-disable-next-line skill-missing-checklist -->\n'),
  );
  return dir;
}

/** Everything the index says, as plain data in a fixed order. */
function shown(index: ContractIndex) {
  return {
    byFile: [...index.byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    byName: [...index.byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    states: [...index.states].sort(),
    skills: [...index.skills.keys()].sort(),
    haltReasons: [...index.haltReasons].sort(),
    agents: [...index.agents.keys()].sort(),
  };
}

/** Write a file of a project (null: remove it). */
function put(dir: string, path: string, text: string | null): void {
  if (text === null) return rmSync(join(dir, path), { recursive: true, force: true });
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

async function freshIndex(texts: ReadonlyMap<string, string | null>): Promise<ContractIndex> {
  const dir = team();
  for (const [path, text] of texts) put(dir, path, text);
  const session = await openSession({ root: dir, concurrency: 'off' });
  const check = session.state.check!;
  return contractIndex(check, readerOf(session));
}

const readerOf = (session: { read(path: string): { text: string } | object }) => (path: string) => {
  const r = session.read(path);
  return 'text' in r ? r.text : null;
};

describe('the contract index after edits', () => {
  it('is the index of a fresh session on the same texts, edit after edit', async () => {
    const dir = team();
    const session = await openSession({ root: dir, concurrency: 'off' });
    const read = readerOf(session);
    const texts = new Map<string, string | null>();
    const original = (path: string) => readFileSync(join(dir, path), 'utf8');
    const edit = async (path: string, change: (text: string) => string): Promise<SessionCheck> => {
      const before = texts.get(path) ?? original(path);
      const after = change(before!);
      expect(after, `the edit of ${path} changes it`).not.toBe(before);
      texts.set(path, after);
      const state = await session.setText(path, after);
      return state.check!;
    };
    const first = contractIndex(session.state.check!, read);
    // the README's skills, the suppression's code and a state declared in SKILL.md are all there
    expect(first.byName.get('skill:running-desk-checks')!.map((o) => o.role)).toContain('readme');
    expect(first.byName.get('code:skill-missing-checklist')!.map((o) => [o.file, o.role])).toEqual([
      ['skills/running-tdd-loops/SKILL.md', 'suppression'],
    ]);
    const steps: [string, (t: string) => string][] = [
      // a skill renamed: its name, the handoffs to it and the README's mention are no longer of a skill
      ['skills/running-desk-checks/SKILL.md', (t) => t.replace('name: running-desk-checks', 'name: desk-checking')],
      // a new state: a backticked mention of it elsewhere becomes a state
      ['skills/running-tdd-loops/LOOP.md', (t) => t.replace('transition in-dev → in-deskcheck', 'transition in-dev → in-pairing')],
      ['skills/writing-stories/SKILL.md', (t) => `${t}\nAfter \`in-pairing\` and \`desk-checking\`, \`verifying-stories\`.\n`],
      // a halt reason added in the config: the prose's `halt` words of it count
      ['.loopkit.yaml', (t) => t.replace('  - budget\n', '  - budget\n  - pairing\n')],
      ['skills/verifying-stories/LOOP.md', (t) => `${t}\nIf the pair disagrees, halt pairing. Never halt sometimes.\n`],
      // the renamed skill renamed back, the new state gone
      ['skills/running-desk-checks/SKILL.md', (t) => t.replace('name: desk-checking', 'name: running-desk-checks')],
      ['skills/running-tdd-loops/LOOP.md', (t) => t.replace('transition in-dev → in-pairing', 'transition in-dev → in-deskcheck')],
    ];
    for (const [path, change] of steps) {
      const check = await edit(path, change);
      expect(shown(contractIndex(check, read)), `after the edit of ${path}`).toEqual(shown(await freshIndex(texts)));
    }
    // a skill added on disk before the others (every other skill's place in the project moves), then removed
    const added = 'skills/aaa-first/SKILL.md';
    for (const text of [
      '---\nname: aaa-first\ndescription: Comes first. Use when testing the index.\n---\n## State Model\n\nStarts in `in-dev`.\n',
      null,
    ]) {
      put(dir, added, text);
      texts.set(added, text);
      const check = (await session.changed([{ path: added, type: text === null ? 'deleted' : 'created' }])).check!;
      expect(check.project.skills.some((s) => s.name === 'aaa-first')).toBe(text !== null);
      expect(shown(contractIndex(check, read)), `after ${added} ${text === null ? 'removed' : 'added'}`).toEqual(
        shown(await freshIndex(texts)),
      );
    }
    const last = contractIndex(session.state.check!, read);
    expect(last.byName.get('halt:pairing')!.map((o) => [o.file, o.role])).toEqual([
      ['.loopkit.yaml', 'config'],
      ['skills/verifying-stories/LOOP.md', 'mention'],
    ]);
    // the transition to it is gone; the state model that declares it (the last section of the SKILL.md) is left
    expect(last.byName.get('state:in-pairing')!.map((o) => [o.file, o.role])).toEqual([['skills/writing-stories/SKILL.md', 'declared']]);
    expect(last.byName.get('skill:desk-checking')).toBeUndefined();
    // a `halt` word that is no halt reason is no place of one
    expect(last.byName.get('halt:sometimes')).toBeUndefined();
    // a transition's handoff or halt that the prose reads too is one place, the directive's
    const at = (line: number) =>
      last.byFile
        .get('skills/running-tdd-loops/LOOP.md')!
        .filter((o) => o.line === line)
        .map((o) => [o.kind, o.name, o.role]);
    expect(at(30)).toEqual([
      ['skill', 'running-desk-checks', 'directive'],
      ['agent', 'qa-agent', 'directive'],
    ]);
    expect(at(34)).toEqual([['halt', 'stall', 'directive']]);
    expect(at(38)).toEqual([['halt', 'stall', 'mention']]);
    // every file's places in document order
    for (const [file, places] of last.byFile) {
      const order = places.map((o) => [o.line, o.column]);
      expect(order, file).toEqual([...order].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
    }
  });

  it('a file holds its places in document order, a suppression comment among the places of the skill file', async () => {
    const dir = team();
    const session = await openSession({ root: dir, concurrency: 'off' });
    const index = contractIndex(session.state.check!, readerOf(session));
    const places = index.byFile.get('skills/running-tdd-loops/SKILL.md')!;
    const order = places.map((o) => [o.line, o.column]);
    expect(order).toEqual([...order].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
    // the comment follows the frontmatter's name and comes before the body's mentions
    expect(places.slice(0, 2).map((o) => [o.kind, o.role])).toEqual([
      ['skill', 'name'],
      ['code', 'suppression'],
    ]);
    // byName: by file, then document order
    const all = index.byName.get('state:in-dev')!;
    const at = all.map((o) => [o.file, o.line, o.column] as const);
    expect(at).toEqual([...at].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) || a[1] - b[1] || a[2] - b[2]));
    expect(new Set(all.map((o) => o.file)).size).toBeGreaterThan(2);
  });
});
