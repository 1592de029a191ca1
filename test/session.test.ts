/**
 * The engine session (src/engine/session.ts): after every change — a buffer's text, a file changed,
 * created or deleted on disk, a broken configuration — what it holds equals a fresh check of the
 * project as it then is (lint() with the same texts).
 */
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/errors.js';
import { lint } from '../src/api/engine.js';
import type { ProjectSession, SessionState } from '../src/engine/session.js';
import { openSession } from '../src/api/engine.js';
import { Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const ROOT = join(import.meta.dirname, '..');

/** A copy of an example project, in a temporary directory. */
function example(name: string): string {
  const dir = temps.dir();
  cpSync(join(ROOT, 'examples', name), dir, { recursive: true });
  return dir;
}

/** What a fresh check of the project says, with these editor texts. */
async function fresh(root: string, overlay: Map<string, string>) {
  return lint({ root, concurrency: 'off', overlay });
}

function summary(state: SessionState) {
  return state.check!.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`);
}

async function expectSame(session: ProjectSession, overlay: Map<string, string>) {
  const state = await session.settled();
  expect(state.failure).toBeNull();
  const want = await fresh(session.root, overlay);
  expect(summary(state)).toEqual(want.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`));
  expect(state.check!.diagnostics).toEqual(want.diagnostics);
  expect(state.check!.graph.edges.length).toBe(want.graph.edges.length);
}

describe('ProjectSession', () => {
  it('holds what check says, and follows buffers, disk changes, deletions and a broken configuration', async () => {
    const root = example('loop');
    const session = await openSession({ root, concurrency: 'off' });
    const overlay = new Map<string, string>();
    await expectSame(session, overlay);
    const clean = session.state.check!.diagnostics.length;

    const skills = session.state.check!.project.skills;
    const withLoop = skills.find((s) => s.loop && s.loop.transitions.length > 0)!;
    const loopPath = withLoop.loop!.file.path;
    const loopText = readFileSync(join(root, loopPath), 'utf8');
    const t = withLoop.loop!.transitions[0]!;

    // break a transition in a buffer: the target becomes a state nobody declares or leaves
    const broken = loopText.split('\n');
    broken[t.line - 1] = broken[t.line - 1]!.replace(t.to, 'nowhere-state');
    overlay.set(loopPath, broken.join('\n'));
    await session.setText(loopPath, overlay.get(loopPath)!);
    await expectSame(session, overlay);
    expect(session.state.check!.diagnostics.length).toBeGreaterThan(clean);

    // several changes at once are checked together
    const half = broken.slice(0, 3).join('\n');
    void session.setText(loopPath, 'first');
    overlay.set(loopPath, half);
    await session.setText(loopPath, half);
    await expectSame(session, overlay);

    // the buffer closed: the disk's text again
    overlay.delete(loopPath);
    await session.setText(loopPath, null);
    await expectSame(session, overlay);
    expect(session.state.check!.diagnostics.length).toBe(clean);

    // a file changed on disk
    writeFileSync(join(root, loopPath), broken.join('\n'));
    await session.changed([{ path: loopPath, type: 'changed' }]);
    await expectSame(session, overlay);

    // a skill renamed on disk (its folder), then deleted: nothing of it is left
    const dir = withLoop.dir;
    renameSync(join(root, dir), join(root, `${dir}-moved`));
    await session.changed([
      { path: `${dir}/SKILL.md`, type: 'deleted' },
      { path: `${dir}-moved/SKILL.md`, type: 'created' },
    ]);
    await expectSame(session, overlay);
    expect(session.state.check!.diagnostics.some((d) => d.file.startsWith(`${dir}/`))).toBe(false);
    rmSync(join(root, `${dir}-moved`), { recursive: true });
    await session.changed([{ path: `${dir}-moved/SKILL.md`, type: 'deleted' }]);
    await expectSame(session, overlay);

    // a broken configuration in the editor: a state of its own, with the place
    await session.setText('.loopkit.yaml', 'skills_dir: [unclosed\n');
    expect(session.state.check).toBeNull();
    expect(session.state.failure).toBeInstanceOf(ConfigError);
    expect((session.state.failure as ConfigError).issues[0]!.line).toBe(2);
    expect(session.state.lastGood).not.toBeNull();
    await session.setText('.loopkit.yaml', null);
    await expectSame(session, overlay);
  });

  it('a new skill and a LOOP.md that becomes a contract are read', async () => {
    const root = example('loop-controller');
    const session = await openSession({ root, concurrency: 'off' });
    const overlay = new Map<string, string>();
    await expectSame(session, overlay);
    mkdirSync(join(root, 'skills', 'writing-notes'));
    writeFileSync(
      join(root, 'skills', 'writing-notes', 'SKILL.md'),
      '---\nname: writing-notes\ndescription: Writes notes when asked to.\n---\n',
    );
    await session.changed([{ path: 'skills/writing-notes/SKILL.md', type: 'created' }]);
    await expectSame(session, overlay);
    expect(session.state.check!.project.skills.map((s) => s.name)).toContain('writing-notes');
    const loop = '## State Transition Rule\n\ntransition note-open → note-done\n';
    overlay.set('skills/writing-notes/LOOP.md', loop);
    await session.setText('skills/writing-notes/LOOP.md', loop);
    await expectSame(session, overlay);
    expect(session.state.check!.graph.states).toContain('note-open');
  });
});
