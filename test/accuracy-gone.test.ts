/**
 * `npm run accuracy -- --explain-gone`: every label a build no longer reports has a reason — the
 * rule is strict's only, only an untargeted loader rejects it, it is under a changed threshold,
 * accuracy/moved.tsv records why, or the finding moved to another (unlabelled) line of its file — and a TRUE label without one fails the run (exit 1).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../scripts/accuracy.mjs';
import { cleanEnv, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const commit = 'a'.repeat(40);
const FILE = '.claude/skills/making-maps/SKILL.md';
const label = (line: number, code: string, verdict: string, reason: string) =>
  `acme/skills\t${commit}\t${FILE}\t${line}\t${code}\t${verdict}\t${reason}\n`;

/** A Claude Code skill whose name is not its folder's (Claude Code loads it) and whose description has no trigger. */
function corpus(labels: string, moved?: string) {
  const base = temps.dir('loopkit-accuracy-gone-');
  const skill = join(base, 'snapshots', 'acme__skills', FILE);
  mkdirSync(join(skill, '..'), { recursive: true });
  writeFileSync(skill, '---\nname: drawing-maps\ndescription: Draws maps of a codebase.\n---\n\n# Maps\n\nDraw them.\n');
  writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\tskills\nacme/skills\t${commit}\tlabelled\t1\n`);
  writeFileSync(join(base, 'labels.tsv'), `repo\tcommit\tfile\tline\tcode\tverdict\treason\n${labels}`);
  const args = [join(base, 'snapshots'), '--labels', join(base, 'labels.tsv'), '--repositories', join(base, 'repositories.tsv')];
  if (moved !== undefined) {
    writeFileSync(join(base, 'moved.tsv'), `repo\tfile\tline\tcode\treason\n${moved}`);
    args.push('--moved', join(base, 'moved.tsv'));
  }
  return args;
}

/** The script's main in this process (test/accuracy.test.ts shows it is the script's run). */
function run(args: string[]) {
  const out: string[] = [];
  const io = { stdout: (s: string) => void out.push(s), stderr: () => undefined, env: cleanEnv(), cwd: process.cwd() };
  const r = { status: main([...args, '--explain-gone', '--json'], io), stdout: out.join('') };
  const gone = (JSON.parse(r.stdout) as { gone: { code: string; line: string; verdict: string; why: { kind: string; text: string } }[] })
    .gone;
  return { status: r.status, kinds: Object.fromEntries(gone.map((g) => [g.code, g.why.kind])), gone };
}

describe('npm run accuracy -- --explain-gone', () => {
  it('gives each gone label its reason, and exits 0 when every TRUE one has one', () => {
    const r = run(
      corpus(
        label(3, 'skill-description-missing-trigger', 'TRUE', 'no when-to-use') +
          label(2, 'skill-name-mismatch-dir', 'TRUE', 'name differs from the folder') +
          label(3, 'skill-metadata-too-many-tokens', 'BORDERLINE', '105 cl100k tokens (recounted)') +
          label(8, 'skill-broken-link', 'FALSE', 'a finding fixed as a false positive'),
        `acme/skills\t${FILE}\t8\tskill-broken-link\tthe link was in a template (fixed in issue 24)\n`,
      ),
    );
    expect(r.kinds).toEqual({
      'skill-description-missing-trigger': 'strict only',
      'skill-name-mismatch-dir': 'untargeted loader',
      'skill-metadata-too-many-tokens': 'threshold',
      'skill-broken-link': 'recorded',
    });
    expect(r.gone.find((g) => g.code === 'skill-broken-link')!.why.text).toBe('the link was in a template (fixed in issue 24)');
    expect(r.status).toBe(0);
  });

  it('a TRUE label gone without a reason fails the run; an unexplained FALSE one does not', () => {
    const lost = run(corpus(label(7, 'skill-broken-link', 'TRUE', 'a real broken link')));
    expect(lost.kinds).toEqual({ 'skill-broken-link': 'unexplained' });
    expect(lost.status).toBe(1);
    const fixed = run(corpus(label(7, 'skill-broken-link', 'FALSE', 'not broken after all')));
    expect(fixed.kinds).toEqual({ 'skill-broken-link': 'unexplained' });
    expect(fixed.status).toBe(0);
  });

  it('a finding that moved to an unlabelled line of the same file explains its gone label; a labelled line does not', () => {
    // the trigger finding is at line 3 under strict: a label at line 2 is the same finding, moved
    const moved = run(corpus(label(2, 'skill-description-missing-trigger', 'TRUE', 'no when-to-use')));
    expect(moved.kinds).toEqual({ 'skill-description-missing-trigger': 'moved' });
    expect(moved.gone[0]!.why.text).toContain('now at line 3');
    expect(moved.status).toBe(0);
    // line 3 has its own label: nothing moved there, the label at line 2 is lost
    const taken = run(
      corpus(
        label(2, 'skill-description-missing-trigger', 'TRUE', 'no when-to-use') +
          label(3, 'skill-description-missing-trigger', 'TRUE', 'same'),
      ),
    );
    // (the label at line 3 is gone from the default run too: the rule is strict's only)
    expect(taken.gone.map((g) => [g.line, g.why.kind])).toEqual([
      ['2', 'unexplained'],
      ['3', 'strict only'],
    ]);
    expect(taken.status).toBe(1);
    // another code of the same file is no move
    const other = run(corpus(label(2, 'skill-broken-link', 'TRUE', 'a real broken link')));
    expect(other.kinds).toEqual({ 'skill-broken-link': 'unexplained' });
  });

  it('a recount over the threshold is no reason: the label stays unexplained', () => {
    const r = run(corpus(label(3, 'skill-metadata-too-many-tokens', 'TRUE', '140 cl100k tokens (recounted)')));
    expect(r.kinds).toEqual({ 'skill-metadata-too-many-tokens': 'unexplained' });
    expect(r.status).toBe(1);
  });
});
