/**
 * `npm run accuracy`: the script that holds a build to the labelled findings (scripts/accuracy.mjs),
 * run on snapshots made here, with labels written here. The script's `main` runs in the test's own
 * process (what the mutation run's per-test coverage sees); the loopkit it runs is the built
 * bin/loopkit.js in a child process. One test runs the real script in a child process: the command
 * line prints and exits as `main` says.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, Temps, type Run } from './helpers/cli.js';
import { accuracy, write } from './helpers/accuracy.js';

const SCRIPT = join(ROOT, 'scripts', 'accuracy.mjs');
const temps = new Temps();
afterAll(() => temps.cleanup());

/**
 * Two snapshots: one with a name that differs from its folder (an error: the collection names the
 * specification its target) and a broken link, one clean.
 */
function corpus(): { dir: string; labels: string; repositories: string } {
  const base = temps.dir('loopkit-accuracy-');
  const dir = join(base, 'snapshots');
  write(join(dir, 'acme__skills', '.loopkit.yaml'), 'extends: agent-skills\ntargets: spec\n');
  write(
    join(dir, 'acme__skills', 'tools', 'making-maps', 'SKILL.md'),
    '---\nname: drawing-maps\ndescription: Draws maps of a codebase. Use when asked for a map.\n---\n\n# Maps\n\nSee [the guide](guide.md).\n',
  );
  write(
    join(dir, 'other+repo', 'skills', 'writing-notes', 'SKILL.md'),
    '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\nWrite them.\n',
  );
  const repositories = join(base, 'repositories.tsv');
  writeFileSync(
    repositories,
    'repo\tcommit\tset\tskills\nacme/skills\t' + 'a'.repeat(40) + '\ttuning\t1\nother/repo\t' + 'b'.repeat(40) + '\theld-out 1\t1\n',
  );
  const labels = join(base, 'labels.tsv');
  return { dir, labels, repositories };
}

/** The same run by the real script in a child process. */
function accuracyProcess(args: string[], cwd = process.cwd()): Run {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: 'utf8', env: cleanEnv() });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const header = 'repo\tcommit\tfile\tline\tcode\tverdict\treason\n';

describe('npm run accuracy', () => {
  it('counts labelled findings per severity and code, and lists the unlabelled and the gone', () => {
    const { dir, labels, repositories } = corpus();
    const commit = 'a'.repeat(40);
    writeFileSync(
      labels,
      header +
        `acme/skills\t${commit}\ttools/making-maps/SKILL.md\t2\tskill-name-mismatch-dir\tTRUE\tthe name differs from the folder\n` +
        `acme/skills\t${commit}\ttools/making-maps/SKILL.md\t99\tskill-broken-link\tFALSE\ta finding this build does not report\n`,
    );
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.runs.map((x: { repo: string; skills: number }) => [x.repo, x.skills])).toEqual([
      ['acme/skills', 1],
      ['other/repo', 1],
    ]);
    // the labelled error is TRUE; the broken link on line 8 has no label yet
    expect(out.byCode['skill-name-mismatch-dir (error)']).toMatchObject({ findings: 1, TRUE: 1, FALSE: 0, precision: 1 });
    expect(out.unlabelled).toContainEqual(
      expect.objectContaining({
        repo: 'acme/skills',
        file: 'tools/making-maps/SKILL.md',
        line: 8,
        code: 'skill-broken-link',
        severity: 'error',
      }),
    );
    expect(out.bySeverity.error.unlabelled).toBeGreaterThanOrEqual(1);
    // the label for line 99 matches nothing this build reports
    expect(out.gone).toEqual([expect.objectContaining({ line: '99', code: 'skill-broken-link', verdict: 'FALSE' })]);
  });

  it('the report, whole: repositories, the tables per severity, set, set and severity, code and all, the unlabelled and the gone', () => {
    const { dir, labels, repositories } = corpus();
    // a warning in each snapshot (an unknown key of the configuration), and a third repository without a snapshot
    write(join(dir, 'acme__skills', '.loopkit.yaml'), 'extends: agent-skills\ntargets: spec\nskill_dirs: tools\n');
    write(join(dir, 'other+repo', '.loopkit.yaml'), 'extends: agent-skills\nskill_dirs: skills\n');
    writeFileSync(repositories, `${readFileSync(repositories, 'utf8')}gone/away\t${'c'.repeat(40)}\theld-out 2\t3\n`);
    const c = 'a'.repeat(40);
    writeFileSync(
      labels,
      header +
        `acme/skills\t${c}\ttools/making-maps/SKILL.md\t2\tskill-name-mismatch-dir\tTRUE\tthe name differs\n` +
        `acme/skills\t${c}\ttools/making-maps/SKILL.md\t8\tskill-broken-link\tFALSE\tthe guide is generated\n` +
        `acme/skills\t${c}\t.loopkit.yaml\t3\tconfig-unknown-key\tborderline\ta typo, or a key of another tool\n` +
        `acme/skills\t${c}\ttools/making-maps/SKILL.md\t99\tskill-broken-link\tTRUE\tno longer reported\n`,
    );
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const unknown = "Unknown key 'skill_dirs' in .loopkit.yaml; did you mean 'skills_dir'?";
    expect(r.stdout).toBe(
      [
        'loopkit accuracy: 4 labels, 3 repositories',
        '',
        'repositories',
        '  acme/skills [tuning]: 1 skills, exit 1, 3 findings, 2 errors (1 labelled FALSE), commit not verifiable (not a git checkout)',
        '  other/repo [held-out 1]: 1 skills, exit 0, 1 findings, 0 errors (0 labelled FALSE), commit not verifiable (not a git checkout)',
        `  gone/away: no snapshot in ${dir} (--clone makes it)`,
        '',
        'per severity',
        '           findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  error           2     1      1           0           0     50.0 %               50.0 %',
        '  warning         2     0      0           1           1          —                0.0 %',
        '',
        'per set',
        '              findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  held-out 1         1     0      0           0           1          —                    —',
        '  tuning             3     1      1           1           0     50.0 %               33.3 %',
        '',
        'per set and severity',
        '                      findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  held-out 1 warning         1     0      0           0           1          —                    —',
        '  tuning error               2     1      1           0           0     50.0 %               50.0 %',
        '  tuning warning             1     0      0           1           0          —                0.0 %',
        '',
        'per code',
        '                                   findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  config-unknown-key (warning)            2     0      0           1           1          —                0.0 %',
        '  skill-broken-link (error)               1     0      1           0           0      0.0 %                0.0 %',
        '  skill-name-mismatch-dir (error)         1     1      0           0           0    100.0 %              100.0 %',
        '',
        'all',
        '       findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  all         4     1      1           1           1     50.0 %               33.3 %',
        '',
        'unlabelled findings: 1',
        `  other/repo .loopkit.yaml:2 warning config-unknown-key: ${unknown}`,
        '',
        'labels no longer reported (fixed, or the finding moved): 1',
        '  acme/skills tools/making-maps/SKILL.md:99 skill-broken-link (TRUE: no longer reported)',
        '',
      ].join('\n'),
    );
  });

  it('a FALSE label lowers the precision of its code and severity; --todo writes label lines to fill in', () => {
    const { dir, labels, repositories } = corpus();
    const commit = 'a'.repeat(40);
    writeFileSync(
      labels,
      header +
        `acme/skills\t${commit}\ttools/making-maps/SKILL.md\t2\tskill-name-mismatch-dir\tTRUE\tthe name differs from the folder\n` +
        `acme/skills\t${commit}\ttools/making-maps/SKILL.md\t8\tskill-broken-link\tFALSE\tjudged wrong for the test\n`,
    );
    const todo = join(dir, '..', 'todo.tsv');
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories, '--json', '--todo', todo]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.byCode['skill-broken-link (error)']).toMatchObject({ TRUE: 0, FALSE: 1, precision: 0 });
    expect(out.bySeverity.error).toMatchObject({ TRUE: 1, FALSE: 1, precision: 0.5 });
    // a set is held to its figures per severity
    const set = Object.keys(out.bySetSeverity).find((k) => k.endsWith(' error'))!;
    expect(out.bySetSeverity[set]).toMatchObject({ TRUE: 1, FALSE: 1, precision: 0.5 });
    const lines = readFileSync(todo, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('repo\tcommit\tfile\tline\tcode\tseverity\tverdict\treason');
    expect(lines.length).toBe(1 + out.unlabelled.length);
    // the text report names the figures too
    const text = accuracy([dir, '--labels', labels, '--repositories', repositories]);
    expect(text.stdout).toMatch(/per severity[\s\S]*error\s+\d+\s+1\s+1\s+0\s+\d+\s+50\.0 %/u);
  });

  it('a BORDERLINE label counts against the "borderline as false" figure, not against the precision', () => {
    const { dir, labels, repositories } = corpus();
    const commit = 'a'.repeat(40);
    writeFileSync(
      labels,
      header +
        `acme/skills\t${commit}\ttools/making-maps/SKILL.md\t2\tskill-name-mismatch-dir\tTRUE\tthe name differs from the folder\n` +
        `acme/skills\t${commit}\ttools/making-maps/SKILL.md\t8\tskill-broken-link\tborderline\ta judgement call for the test\n`,
    );
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories, '--json']);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.bySeverity.error).toMatchObject({ TRUE: 1, FALSE: 0, BORDERLINE: 1, precision: 1, strict: 0.5 });
    expect(out.byCode['skill-broken-link (error)']).toMatchObject({ BORDERLINE: 1, precision: null, strict: 0 });
    expect(out.all).toMatchObject({ BORDERLINE: 1, strict: out.all.TRUE / (out.all.TRUE + out.all.FALSE + 1) });
    // the text report's last column is the borderline-as-false figure
    const text = accuracy([dir, '--labels', labels, '--repositories', repositories]);
    expect(text.stdout).toMatch(/per severity[\s\S]*\n {2}error\s+\d+\s+1\s+0\s+1\s+\d+\s+100\.0 %\s+50\.0 %\n/u);
  });

  it('--set and --repo select the repositories checked; a set matches its own name and "<set> <n>"', () => {
    const { dir, labels, repositories } = corpus();
    writeFileSync(labels, header);
    const repos = (args: string[]) =>
      JSON.parse(accuracy([dir, '--labels', labels, '--repositories', repositories, '--json', ...args]).stdout).runs.map(
        (x: { repo: string }) => x.repo,
      );
    expect(repos(['--set', 'held-out'])).toEqual(['other/repo']);
    expect(repos(['--set', 'tuning'])).toEqual(['acme/skills']);
    expect(repos(['--set', 'tuning', '--set', 'held-out'])).toEqual(['acme/skills', 'other/repo']);
    expect(repos(['--repo', 'other/repo'])).toEqual(['other/repo']);
    // a set is not a prefix of another set's name
    const none = accuracy([dir, '--labels', labels, '--repositories', repositories, '--set', 'tun']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('no repository of accuracy/repositories.tsv is selected');
  });

  it('a snapshot that is a git checkout at another commit than its labels is not checked; one at the commit is verified', () => {
    const { dir, labels, repositories } = corpus();
    writeFileSync(labels, header);
    const snapshot = join(dir, 'acme__skills');
    const git = (...args: string[]) =>
      spawnSync('git', ['-C', snapshot, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
        encoding: 'utf8',
      });
    if (git('init', '-q').status !== 0) throw new Error('git is needed for this test');
    git('add', '-A');
    git('commit', '-q', '-m', 'snapshot');
    const head = git('rev-parse', 'HEAD').stdout.trim();
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories, '--json']);
    const runs = JSON.parse(r.stdout).runs;
    expect(runs[0]).toEqual({
      repo: 'acme/skills',
      set: 'tuning',
      error: `the snapshot is at ${head.slice(0, 12)}, the labels are for ${'a'.repeat(12)}`,
    });
    expect(runs[1]).toMatchObject({ repo: 'other/repo', verified: false });
    writeFileSync(repositories, readFileSync(repositories, 'utf8').replace('a'.repeat(40), head));
    const at = JSON.parse(accuracy([dir, '--labels', labels, '--repositories', repositories, '--json']).stdout).runs;
    expect(at[0]).toMatchObject({ repo: 'acme/skills', skills: 1, verified: true });
  });

  it('a second label for the same finding is a usage error (exit 2), located', () => {
    const { dir, labels, repositories } = corpus();
    const line = `acme/skills\t${'a'.repeat(40)}\ttools/making-maps/SKILL.md\t2\tskill-name-mismatch-dir\tTRUE\tthe name differs\n`;
    writeFileSync(labels, header + line + line.replace('TRUE', 'FALSE'));
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${labels}:3: a second label for acme/skills tools/making-maps/SKILL.md:2 skill-name-mismatch-dir`);
    expect(r.stdout).toBe('');
  });

  it('a label with an unknown verdict or no reason is a usage error (exit 2), located', () => {
    const { dir, labels, repositories } = corpus();
    writeFileSync(labels, header + 'acme/skills\tx\ta/SKILL.md\t2\tskill-name-mismatch-dir\tMAYBE\tnot sure\n');
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${labels}:2: verdict 'MAYBE'`);
    writeFileSync(labels, header + 'acme/skills\tx\ta/SKILL.md\t2\tskill-name-mismatch-dir\tTRUE\t\n');
    expect(accuracy([dir, '--labels', labels, '--repositories', repositories]).stderr).toContain('needs a one-line reason');
  });

  it('a list without its header line, or a missing list, is a usage error (exit 2), located', () => {
    const { dir, labels, repositories } = corpus();
    writeFileSync(labels, header);
    // a repositories list written without its header: the first row would be read as the column names
    writeFileSync(repositories, `acme/skills\t${'c'.repeat(40)}\theld-out\t3\n`);
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${repositories}:1: the header line must name the columns repo, commit, set`);
    expect(r.stderr).not.toMatch(/TypeError|at \w+ \(/u);
    const gone = accuracy([dir, '--labels', join(dir, 'no-labels.tsv'), '--repositories', repositories]);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toContain('no-labels.tsv: no such file');
  });

  it('names a missing snapshot instead of failing; no snapshots directory is a usage error', () => {
    const { dir, labels, repositories } = corpus();
    writeFileSync(labels, header);
    const r = accuracy([join(dir, 'nowhere'), '--labels', labels, '--repositories', repositories]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no such directory');
    writeFileSync(repositories, readFileSync(repositories, 'utf8') + 'gone/repo\t' + 'c'.repeat(40) + '\ttuning\t3\n');
    const ok = accuracy([dir, '--labels', labels, '--repositories', repositories]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('gone/repo: no snapshot in');
  });

  it('the command line (node scripts/accuracy.mjs) prints and exits as main does, relative paths from its directory', () => {
    const { dir, labels, repositories } = corpus();
    writeFileSync(labels, header);
    const base = join(dir, '..');
    const both = (args: string[]) => {
      const child = accuracyProcess(args, base);
      expect(child).toEqual(accuracy(args, { cwd: base }));
      return child;
    };
    const help = both(['--help']);
    expect(help.status).toBe(2);
    expect(help.stdout).toBe('');
    expect(help.stderr).toMatch(/^usage: npm run accuracy -- <snapshots-dir> \[options\]\n/u);
    const none = both(['snapshots', '--labels', 'labels.tsv', '--repositories', 'repositories.tsv', '--set', 'tun']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^accuracy: no repository of accuracy\/repositories.tsv is selected\nusage: /u);
    const json = both(['snapshots', '--labels', 'labels.tsv', '--repositories', 'repositories.tsv', '--json']);
    expect(json.status).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout).runs.map((x: { repo: string; skills: number }) => [x.repo, x.skills])).toEqual([
      ['acme/skills', 1],
      ['other/repo', 1],
    ]);
    expect(labels).toBe(join(base, 'labels.tsv'));
    expect(repositories).toBe(join(base, 'repositories.tsv'));
  });

  it('the labels kept in the repository are well-formed and name repositories of repositories.tsv at their commit', () => {
    const repos = new Map(
      readFileSync(join(ROOT, 'accuracy', 'repositories.tsv'), 'utf8')
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#'))
        .slice(1)
        .map((l) => l.split('\t') as [string, string]),
    );
    const rows = readFileSync(join(ROOT, 'accuracy', 'labels.tsv'), 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'))
      .slice(1)
      .map((l) => l.split('\t'));
    for (const [repo, commit, file, line, code, verdict, reason] of rows) {
      expect(repos.has(repo!), `${repo} is in repositories.tsv`).toBe(true);
      // a label is a fact about the repository at the commit the corpus is checked at
      expect(commit).toMatch(/^[0-9a-f]{40}$/u);
      expect(commit, `${repo} ${file}:${line} ${code}`).toBe(repos.get(repo!));
      expect(file).not.toBe('');
      expect(line).toMatch(/^\d*$/u);
      expect(code).toMatch(/^[a-z0-9-]+$/u);
      expect(['TRUE', 'FALSE', 'BORDERLINE']).toContain(verdict);
      expect(reason!.trim()).not.toBe('');
    }
  });
});
