/**
 * `npm run accuracy` (scripts/accuracy.mjs), what test/accuracy.test.ts leaves out, each result
 * compared whole: the usage errors, the reading of the .tsv lists, the JSON report, a snapshot loopkit
 * cannot check (exit 2, a signal, no word), `--heuristics`, `--clone` (from a local repository the
 * GitHub address is rewritten to), a `.git` that is no repository, the text report of `--explain-gone`,
 * `--todo`, the lists cut at 50, and `readTsv`. The script's `main` runs in this process; the loopkit
 * it runs is the built bin/loopkit.js in a child process (one per snapshot and run).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main, readTsv } from '../scripts/accuracy.mjs';
import { BAR, MIN_LABELS, NOT_DEFAULT, decisionTable, decisions, pct, type Label } from '../scripts/heuristic-precision.mjs';
import { BIN, cleanEnv, ROOT, Temps } from './helpers/cli.js';
import { accuracy, write } from './helpers/accuracy.js';

const temps = new Temps();
afterAll(() => temps.cleanup());
afterEach(() => vi.restoreAllMocks());

/** The usage text, as scripts/accuracy.mjs writes it. */
const USAGE = [
  'usage: npm run accuracy -- <snapshots-dir> [options]',
  '       npm run accuracy -- --heuristics    the default set of agent-skills from the held-out labels (no snapshots)',
  '  --labels <file>        the labels (default: accuracy/labels.tsv)',
  '  --explain-gone         say why each label no longer reported is gone (two more runs per repository that has one)',
  '  --moved <file>         the recorded reasons of labels gone on purpose (default: accuracy/moved.tsv)',
  '  --repositories <file>  the repositories and commits (default: accuracy/repositories.tsv)',
  '  --repo <owner/name>    only this repository (repeatable)',
  '  --set <name>           only the repositories of this set (repeatable: tuning, held-out …)',
  '  --todo <file>          write the unlabelled findings as label lines with an empty verdict',
  '  --json                 print the figures as JSON',
  '  --clone                clone the missing snapshots with git first (needs the network)',
  '',
].join('\n');

const usageError = (message: string) => `accuracy: ${message}\n${USAGE}`;

const HEADER = 'repo\tcommit\tfile\tline\tcode\tverdict\treason\n';
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const D = 'd'.repeat(40);

/** The five tables of a run that counted nothing. */
const EMPTY_TABLES = [
  'per severity',
  '    findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
  '',
  'per set',
  '    findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
  '',
  'per set and severity',
  '    findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
  '',
  'per code',
  '    findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
  '',
  'all',
  '       findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
  '  all         0     0      0           0           0          —                    —',
  '',
];

/** A tally with its precision figures, in the order the script writes its keys. */
const t = (findings: number, T: number, F: number, Bl: number, unlabelled: number, precision: number | null, strict: number | null) => ({
  findings,
  TRUE: T,
  FALSE: F,
  BORDERLINE: Bl,
  unlabelled,
  precision,
  strict,
});

describe('npm run accuracy: usage errors', () => {
  it('-h and --help print the usage on stderr (exit 2), nothing on stdout', () => {
    for (const flag of ['-h', '--help']) expect(accuracy([flag])).toEqual({ status: 2, stdout: '', stderr: USAGE });
  });

  it('each option that takes a value says so when it is the last argument', () => {
    for (const option of ['--labels', '--repositories', '--repo', '--set', '--todo', '--moved'])
      expect(accuracy([option])).toEqual({ status: 2, stdout: '', stderr: usageError(`${option} needs a value`) });
  });

  it('an unknown option, a second snapshots directory, no snapshots directory, one that does not exist', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    expect(accuracy(['snapshots', '--bogus'], { cwd: base })).toEqual({
      status: 2,
      stdout: '',
      stderr: usageError('unknown option --bogus'),
    });
    expect(accuracy(['one', 'two'], { cwd: base })).toEqual({
      status: 2,
      stdout: '',
      stderr: usageError("one snapshots directory, not 'two' too"),
    });
    expect(accuracy(['--json'])).toEqual({ status: 2, stdout: '', stderr: usageError('the snapshots directory is missing') });
    // a relative directory is taken from the run's directory; without --clone it is not made
    expect(accuracy(['nowhere', '--labels', 'none.tsv'], { cwd: base })).toEqual({
      status: 2,
      stdout: '',
      stderr: usageError(`no such directory: ${join(base, 'nowhere')}`),
    });
  });

  it('no repository selected by --set or --repo is a usage error', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    mkdirSync(join(base, 'snapshots'));
    writeFileSync(join(base, 'labels.tsv'), HEADER);
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\nacme/skills\t${A}\ttuning\n`);
    const args = ['snapshots', '--labels', 'labels.tsv', '--repositories', 'repositories.tsv'];
    const none = usageError('no repository of accuracy/repositories.tsv is selected');
    expect(accuracy([...args, '--set', 'held-out'], { cwd: base })).toEqual({ status: 2, stdout: '', stderr: none });
    expect(accuracy([...args, '--repo', 'acme/other'], { cwd: base })).toEqual({ status: 2, stdout: '', stderr: none });
  });

  it('a failure that is no usage error (a labels "file" that is a directory) escapes main', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    mkdirSync(join(base, 'snapshots'));
    mkdirSync(join(base, 'labels.tsv'));
    const err: string[] = [];
    let thrown: unknown = null;
    try {
      main(['snapshots', '--labels', 'labels.tsv'], {
        stdout: () => undefined,
        stderr: (s) => void err.push(s),
        env: cleanEnv(),
        cwd: base,
      });
    } catch (e) {
      thrown = e;
    }
    expect((thrown as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(err).toEqual([]);
  });

  it('without --labels and --repositories, the lists kept in accuracy/ are read', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    mkdirSync(join(base, 'snapshots'));
    const labels = readTsv(join(ROOT, 'accuracy', 'labels.tsv'), ['repo', 'commit', 'file', 'line', 'code', 'verdict']);
    const first = readTsv(join(ROOT, 'accuracy', 'repositories.tsv'), ['repo', 'commit', 'set'])[0]!;
    const r = accuracy(['snapshots', '--repo', first.repo!], { cwd: base });
    expect(r).toEqual({
      status: 0,
      stderr: '',
      stdout: [
        `loopkit accuracy: ${labels.length} labels, 1 repositories`,
        '',
        'repositories',
        `  ${first.repo}: no snapshot in ${join(base, 'snapshots')} (--clone makes it)`,
        '',
        ...EMPTY_TABLES,
        'unlabelled findings: 0',
        '',
        'labels no longer reported (fixed, or the finding moved): 0',
        '',
      ].join('\n'),
    });
  });
});

describe('npm run accuracy: the .tsv lists', () => {
  it('a labels header found after comments that misses columns is located; a labels line each problem, no usage', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    mkdirSync(join(base, 'snapshots'));
    const labels = join(base, 'labels.tsv');
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\nacme/skills\t${A}\ttuning\n`);
    const args = [join(base, 'snapshots'), '--labels', labels, '--repositories', join(base, 'repositories.tsv')];
    writeFileSync(labels, '# the labels of the test\n\nrepo\tcommit\tline\tcode\treason\n');
    expect(accuracy(args)).toEqual({
      status: 2,
      stdout: '',
      stderr: usageError(
        `${labels}:3: the header line must name the columns repo, commit, file, line, code, verdict (tab-separated); missing: file, verdict`,
      ),
    });
    writeFileSync(
      labels,
      '# a comment\n' +
        HEADER +
        'a/b\tc\tf.md\t2\tx-code\tmaybe\tnot sure\n' +
        ' \t \n' +
        'a/b\tc\tf.md\t3\tx-code\tTRUE\t\n' +
        'a/b\tc\tf.md\t4\tx-code\tFALSE\n' +
        'a/b\tc\tf.md\t4\tx-code\ttrue\tagain\n' +
        'a/b\tc\tf.md\t5\tx-code\tNOPE\tends with #\n',
    );
    expect(accuracy(args)).toEqual({
      status: 2,
      stdout: '',
      stderr: [
        `${labels}:3: verdict 'maybe' is not one of TRUE, FALSE, BORDERLINE`,
        `${labels}:5: a label needs a one-line reason`,
        `${labels}:6: a label needs a one-line reason`,
        `${labels}:7: a second label for a/b f.md:4 x-code`,
        `${labels}:8: verdict 'NOPE' is not one of TRUE, FALSE, BORDERLINE`,
        '',
      ].join('\n'),
    });
  });

  it('a moved list without its reason column is a usage error of --explain-gone; a missing one is no reason', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    write(
      join(base, 'snapshots', 'acme__skills', 'skills', 'writing-notes', 'SKILL.md'),
      '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\nWrite them.\n',
    );
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\nacme/skills\t${A}\ttuning\n`);
    writeFileSync(
      join(base, 'labels.tsv'),
      `${HEADER}acme/skills\t${A}\tskills/writing-notes/SKILL.md\t5\tskill-broken-link\tFALSE\tgone\n`,
    );
    const moved = join(base, 'moved.tsv');
    writeFileSync(moved, 'repo\tfile\tline\tcode\n');
    const args = [join(base, 'snapshots'), '--labels', join(base, 'labels.tsv'), '--repositories', join(base, 'repositories.tsv')];
    expect(accuracy([...args, '--explain-gone', '--moved', moved])).toEqual({
      status: 2,
      stdout: '',
      stderr: usageError(
        `${moved}:1: the header line must name the columns repo, file, line, code, reason (tab-separated); missing: reason`,
      ),
    });
    const r = accuracy([...args, '--explain-gone', '--json', '--moved', join(base, 'no-moved.tsv')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).gone).toEqual([
      {
        $line: 2,
        repo: 'acme/skills',
        commit: A,
        file: 'skills/writing-notes/SKILL.md',
        line: '5',
        code: 'skill-broken-link',
        verdict: 'FALSE',
        reason: 'gone',
        why: { kind: 'unexplained', text: 'not reported under strict with every target, and no reason in accuracy/moved.tsv' },
      },
    ]);
  });
});

/**
 * Four repositories: acme/skills (set b-set: an unknown key of the configuration, a name that differs
 * from its folder, a broken link), zeta/notes (set a-set, a `+` folder with a `.git` that is no
 * repository: an unknown key, a broken link made info, a skill outside skills_dir in a folder whose
 * name ends in a dot), gone/away (no snapshot) and broken/config (a configuration loopkit rejects).
 * The lists have comments, blank lines, cells with spaces around them and verdicts in lower case.
 */
function mainCorpus() {
  const base = temps.dir('loopkit-accuracy-more-');
  const dir = join(base, 'snapshots');
  write(join(dir, 'acme__skills', '.loopkit.yaml'), 'extends: agent-skills\ntargets: spec\nskill_dirs: tools\n');
  write(
    join(dir, 'acme__skills', 'tools', 'making-maps', 'SKILL.md'),
    '---\nname: drawing-maps\ndescription: Draws maps of a codebase. Use when asked for a map.\n---\n\n# Maps\n\nSee [the guide](guide.md).\n',
  );
  write(
    join(dir, 'zeta+notes', '.loopkit.yaml'),
    'extends: agent-skills\nskills_dir: skills\nskill_dirs: x\nrules:\n  skill-broken-link: info\n',
  );
  write(
    join(dir, 'zeta+notes', 'skills', 'writing-notes', 'SKILL.md'),
    '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\nSee [a](<my  file.md>).\n',
  );
  write(
    join(dir, 'zeta+notes', 'drafts.', 'old-notes', 'SKILL.md'),
    '---\nname: old-notes\ndescription: Writes old notes. Use when asked for old notes.\n---\n\n# Notes\n',
  );
  write(join(dir, 'zeta+notes', '.git'), 'gitdir: /nonexistent/loopkit-accuracy-test\n');
  write(join(dir, 'broken__config', '.loopkit.yaml'), 'rules:\n  skill-broken-link: loud\n  skill-name-vague: bad\ntargets: 5\n');
  write(
    join(dir, 'broken__config', 'skills', 'writing-notes', 'SKILL.md'),
    '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n',
  );
  const repositories = join(base, 'repositories.tsv');
  writeFileSync(
    repositories,
    '# the repositories of the test\n\n' +
      'repo \t commit\tset\tskills\n' +
      `acme/skills\t${A}\tb-set\t1\n` +
      `# a comment between rows\n zeta/notes \t${B}\t a-set \t1\n` +
      `gone/away\t${C}\ta-set\t1\n` +
      `broken/config\t${D}\ta-set\t1\n`,
  );
  const labels = join(base, 'labels.tsv');
  writeFileSync(
    labels,
    '# the labels of the test\n' +
      HEADER +
      `acme/skills\t${A}\ttools/making-maps/SKILL.md\t2\tskill-name-mismatch-dir\ttrue\tthe name differs\n` +
      `acme/skills\t${A}\ttools/making-maps/SKILL.md\t8\tskill-broken-link\tFALSE\tthe guide is generated\n` +
      '\n' +
      `acme/skills\t${A}\t.loopkit.yaml\t3\tconfig-unknown-key\tBorderline\ta typo, or a key of another tool\n` +
      `acme/skills\t${A}\ttools/making-maps/SKILL.md\t99\tskill-broken-link\tTRUE\t no longer reported \n` +
      `zeta/notes\t${B}\t.loopkit.yaml\t3\tconfig-unknown-key\tTRUE\ta typo\n` +
      `gone/away\t${C}\tSKILL.md\t2\tskill-name-mismatch-dir\tTRUE\tnot checked: no snapshot\n` +
      `broken/config\t${D}\tskills/writing-notes/SKILL.md\t7\tskill-broken-link\tTRUE\tnot checked: loopkit exits 2\n`,
  );
  return { base, dir, labels, repositories };
}

/** loopkit's own words for the configuration of broken/config: the last three of its four lines. */
const BROKEN =
  'loopkit exited 2:   .loopkit.yaml:2:22: rules.skill-broken-link: expected one of off, info, warning, error /   .loopkit.yaml:3:21: rules.skill-name-vague: expected one of off, info, warning, error /   .loopkit.yaml:4:10: targets: expected a target or a list of targets';

describe('npm run accuracy: the report of a corpus', () => {
  let corpus: ReturnType<typeof mainCorpus>;
  beforeAll(() => {
    corpus = mainCorpus();
  });

  it('--json: runs, every tally with its precision, the unlabelled and the gone, in the order the script writes them', () => {
    const { dir, labels, repositories } = corpus;
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const expected = {
      runs: [
        { repo: 'acme/skills', set: 'b-set', skills: 1, exit: 1, errors: 2, falseErrors: 1, findings: 3, verified: false },
        { repo: 'zeta/notes', set: 'a-set', skills: 1, exit: 1, errors: 1, falseErrors: 0, findings: 3, verified: false },
        { repo: 'gone/away', set: 'a-set', missing: true },
        { repo: 'broken/config', set: 'a-set', error: BROKEN },
      ],
      all: t(6, 2, 1, 1, 2, 2 / 3, 0.5),
      bySeverity: { error: t(3, 1, 1, 0, 1, 0.5, 0.5), warning: t(2, 1, 0, 1, 0, 1, 0.5), info: t(1, 0, 0, 0, 1, null, null) },
      byCode: {
        'config-unknown-key (warning)': t(2, 1, 0, 1, 0, 1, 0.5),
        'skill-broken-link (error)': t(1, 0, 1, 0, 0, 0, 0),
        'skill-broken-link (info)': t(1, 0, 0, 0, 1, null, null),
        'skill-name-mismatch-dir (error)': t(1, 1, 0, 0, 0, 1, 1),
        'skill-outside-skills-dir (error)': t(1, 0, 0, 0, 1, null, null),
      },
      // in the order the sets were first met
      bySet: { 'b-set': t(3, 1, 1, 1, 0, 0.5, 1 / 3), 'a-set': t(3, 1, 0, 0, 2, 1, 1) },
      bySetSeverity: {
        'a-set error': t(1, 0, 0, 0, 1, null, null),
        'a-set warning': t(1, 1, 0, 0, 0, 1, 1),
        'a-set info': t(1, 0, 0, 0, 1, null, null),
        'b-set error': t(2, 1, 1, 0, 0, 0.5, 0.5),
        'b-set warning': t(1, 0, 0, 1, 0, null, 0),
      },
      unlabelled: [
        {
          repo: 'zeta/notes',
          commit: B,
          file: 'drafts./old-notes/SKILL.md',
          line: null,
          code: 'skill-outside-skills-dir',
          severity: 'error',
          message: 'The skill in drafts./old-notes/ was not checked: it is outside skills_dir (skills)',
        },
        {
          repo: 'zeta/notes',
          commit: B,
          file: 'skills/writing-notes/SKILL.md',
          line: 8,
          code: 'skill-broken-link',
          severity: 'info',
          message: "Link 'my  file.md' points at 'skills/writing-notes/my  file.md', which does not exist",
        },
      ],
      gone: [
        {
          $line: 7,
          repo: 'acme/skills',
          commit: A,
          file: 'tools/making-maps/SKILL.md',
          line: '99',
          code: 'skill-broken-link',
          verdict: 'TRUE',
          reason: 'no longer reported',
        },
      ],
    };
    expect(JSON.parse(r.stdout)).toEqual(expected);
    // the keys in their order too
    expect(r.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it('the text report, whole, with --todo: the label lines to fill in, whole', () => {
    const { base, dir, labels, repositories } = corpus;
    const todo = join(base, 'todo.tsv');
    const r = accuracy([dir, '--labels', labels, '--repositories', repositories, '--todo', todo]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        'loopkit accuracy: 7 labels, 4 repositories',
        '',
        'repositories',
        '  acme/skills [b-set]: 1 skills, exit 1, 3 findings, 2 errors (1 labelled FALSE), commit not verifiable (not a git checkout)',
        '  zeta/notes [a-set]: 1 skills, exit 1, 3 findings, 1 errors (0 labelled FALSE), commit not verifiable (not a git checkout)',
        `  gone/away: no snapshot in ${dir} (--clone makes it)`,
        `  broken/config: ${BROKEN}`,
        '',
        'per severity',
        '           findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  error           3     1      1           0           1     50.0 %               50.0 %',
        '  warning         2     1      0           1           0    100.0 %               50.0 %',
        '  info            1     0      0           0           1          —                    —',
        '',
        'per set',
        '         findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  a-set         3     1      0           0           2    100.0 %              100.0 %',
        '  b-set         3     1      1           1           0     50.0 %               33.3 %',
        '',
        'per set and severity',
        '                 findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  a-set error           1     0      0           0           1          —                    —',
        '  a-set warning         1     1      0           0           0    100.0 %              100.0 %',
        '  a-set info            1     0      0           0           1          —                    —',
        '  b-set error           2     1      1           0           0     50.0 %               50.0 %',
        '  b-set warning         1     0      0           1           0          —                0.0 %',
        '',
        'per code',
        '                                    findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  config-unknown-key (warning)             2     1      0           1           0    100.0 %               50.0 %',
        '  skill-broken-link (error)                1     0      1           0           0      0.0 %                0.0 %',
        '  skill-broken-link (info)                 1     0      0           0           1          —                    —',
        '  skill-name-mismatch-dir (error)          1     1      0           0           0    100.0 %              100.0 %',
        '  skill-outside-skills-dir (error)         1     0      0           0           1          —                    —',
        '',
        'all',
        '       findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  all         6     2      1           1           2     66.7 %               50.0 %',
        '',
        `unlabelled findings: 2 (written to ${todo})`,
        '  zeta/notes drafts./old-notes/SKILL.md: error skill-outside-skills-dir: The skill in drafts./old-notes/ was not checked: it is outside skills_dir (skills)',
        "  zeta/notes skills/writing-notes/SKILL.md:8 info skill-broken-link: Link 'my  file.md' points at 'skills/writing-notes/my  file.md', which does not exist",
        '',
        'labels no longer reported (fixed, or the finding moved): 1',
        '  acme/skills tools/making-maps/SKILL.md:99 skill-broken-link (TRUE: no longer reported)',
        '',
      ].join('\n'),
    );
    // the verdict left empty, the message on one line with its runs of white space made one space
    expect(readFileSync(todo, 'utf8')).toBe(
      [
        'repo\tcommit\tfile\tline\tcode\tseverity\tverdict\treason',
        `zeta/notes\t${B}\tdrafts./old-notes/SKILL.md\t\tskill-outside-skills-dir\terror\t\tThe skill in drafts./old-notes/ was not checked: it is outside skills_dir (skills)`,
        `zeta/notes\t${B}\tskills/writing-notes/SKILL.md\t8\tskill-broken-link\tinfo\t\tLink 'my file.md' points at 'skills/writing-notes/my file.md', which does not exist`,
        '',
      ].join('\n'),
    );
  });
});

describe('npm run accuracy: a finding without a line', () => {
  it('matches the label whose line is empty', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    write(join(base, 'snapshots', 'acme__skills', '.loopkit.yaml'), 'extends: agent-skills\nskills_dir: skills\n');
    write(
      join(base, 'snapshots', 'acme__skills', 'skills', 'writing-notes', 'SKILL.md'),
      '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\nWrite them.\n',
    );
    write(
      join(base, 'snapshots', 'acme__skills', 'drafts', 'old-notes', 'SKILL.md'),
      '---\nname: old-notes\ndescription: Writes old notes. Use when asked for old notes.\n---\n\n# Notes\n',
    );
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\nacme/skills\t${A}\ts\n`);
    writeFileSync(
      join(base, 'labels.tsv'),
      `${HEADER}acme/skills\t${A}\tdrafts/old-notes/SKILL.md\t\tskill-outside-skills-dir\tTRUE\ta draft\n`,
    );
    const r = accuracy([
      join(base, 'snapshots'),
      '--labels',
      join(base, 'labels.tsv'),
      '--repositories',
      join(base, 'repositories.tsv'),
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      runs: [{ repo: 'acme/skills', set: 's', skills: 1, exit: 1, errors: 1, falseErrors: 0, findings: 1, verified: false }],
      all: t(1, 1, 0, 0, 0, 1, 1),
      bySeverity: { error: t(1, 1, 0, 0, 0, 1, 1) },
      byCode: { 'skill-outside-skills-dir (error)': t(1, 1, 0, 0, 0, 1, 1) },
      bySet: { s: t(1, 1, 0, 0, 0, 1, 1) },
      bySetSeverity: { 's error': t(1, 1, 0, 0, 0, 1, 1) },
      unlabelled: [],
      gone: [],
    });
  });
});

/**
 * loopkit that cannot check a snapshot, each way: `NODE_OPTIONS` makes every loopkit of the run load
 * a hook first, which acts by the snapshot's folder (its owner) — killed by a signal, silent, words on
 * stdout only, on both, or telling how it was run.
 */
describe('npm run accuracy: a snapshot loopkit cannot check', () => {
  it('names the exit code and the last three lines loopkit said, or the signal, or that it said nothing', () => {
    const base = realpathSync(temps.dir('loopkit-accuracy-more-'));
    const hook = join(base, 'hook.cjs');
    writeFileSync(
      hook,
      [
        "const { basename } = require('node:path');",
        "if (process.env.HOOK_RULES === 'fail') {",
        "  process.stderr.write('  no rules today  \\n');",
        '  process.exit(3);',
        '}',
        "const how = basename(process.cwd()).split('__')[0];",
        "if (how === 'kill') process.kill(process.pid, 'SIGKILL');",
        "if (how === 'silent') process.exit(3);",
        "if (how === 'stdout') {",
        "  process.stdout.write('one\\ntwo\\nthree\\nfour\\n');",
        '  process.exit(2);',
        '}',
        "if (how === 'both') {",
        "  process.stdout.write('on stdout\\n');",
        "  process.stderr.write('  first\\nsecond  \\n');",
        '  process.exit(4);',
        '}',
        "if (how === 'env') {",
        '  process.stderr.write(`argv ${process.argv.slice(1).join(" ")}\\ncwd ${process.cwd()}\\n`);',
        '  process.stderr.write(`NO_COLOR=${process.env.NO_COLOR} LOOPKIT_NO_CACHE=${process.env.LOOPKIT_NO_CACHE}\\n`);',
        '  process.exit(2);',
        '}',
        '',
      ].join('\n'),
    );
    const hows = ['kill', 'silent', 'stdout', 'both', 'env'];
    for (const how of hows) mkdirSync(join(base, 'snapshots', `${how}__x`), { recursive: true });
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\n${hows.map((h) => `${h}/x\t${A}\ts\n`).join('')}`);
    writeFileSync(join(base, 'labels.tsv'), HEADER);
    const env = { NODE_OPTIONS: `--require ${hook}` };
    const r = accuracy(['snapshots', '--labels', 'labels.tsv', '--repositories', 'repositories.tsv'], { cwd: base, env });
    expect(r).toEqual({
      status: 0,
      stderr: '',
      stdout: [
        'loopkit accuracy: 0 labels, 5 repositories',
        '',
        'repositories',
        '  kill/x: loopkit exited null: ended by SIGKILL without a word',
        '  silent/x: loopkit exited 3: ended by an unknown cause without a word',
        '  stdout/x: loopkit exited 2: two / three / four',
        '  both/x: loopkit exited 4: first / second',
        `  env/x: loopkit exited 2: argv ${BIN} check . --format json --no-cache / cwd ${join(base, 'snapshots', 'env__x')} / NO_COLOR=1 LOOPKIT_NO_CACHE=1`,
        '',
        ...EMPTY_TABLES,
        'unlabelled findings: 0',
        '',
        'labels no longer reported (fixed, or the finding moved): 0',
        '',
      ].join('\n'),
    });
    // --heuristics: loopkit rules --json run with the run's environment, its failure a usage error
    const failed = accuracy(['--heuristics', '--labels', 'labels.tsv', '--repositories', 'repositories.tsv'], {
      cwd: base,
      env: { ...env, HOOK_RULES: 'fail' },
    });
    expect(failed).toEqual({ status: 2, stdout: '', stderr: usageError('loopkit rules --json failed: no rules today') });
  });
});

describe('npm run accuracy -- --heuristics', () => {
  let metas: { code: string; certainty: string; presetSeverity: Record<string, string> }[];
  beforeAll(() => {
    metas = JSON.parse(spawnSync(process.execPath, [BIN, 'rules', '--json'], { encoding: 'utf8', env: cleanEnv() }).stdout);
  });

  /** Labels of the held-out round `held/one` (and some of `tune/one`, a set that is not held out). */
  function lists(counts: Record<string, [number, number]>) {
    const base = temps.dir('loopkit-accuracy-more-');
    const rows: Label[] = [];
    for (const [code, [trues, falses]] of Object.entries(counts))
      for (let i = 0; i < trues + falses; i++)
        rows.push({ repo: 'held/one', file: `f${i}.md`, line: String(i + 1), code, verdict: i < trues ? 'TRUE' : 'FALSE', reason: 'r' });
    const tuning = { repo: 'tune/one', file: 'f.md', line: '1', code: 'skill-name-vague', verdict: 'FALSE', reason: 'r' };
    writeFileSync(
      join(base, 'labels.tsv'),
      `# held-out labels\nrepo\tfile\tline\tcode\tverdict\treason\n${[...rows, tuning].map((l) => `${l.repo}\t${l.file}\t${l.line}\t${l.code}\t${l.verdict}\t${l.reason}\n`).join('')}`,
    );
    const repositories = [
      { repo: 'held/one', set: 'held-out-1' },
      { repo: 'tune/one', set: 'tuning' },
    ];
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\n${repositories.map((r) => `${r.repo}\t${A}\t${r.set}\n`).join('')}`);
    const presetOf = (code: string) => metas.find((m) => m.code === code)?.presetSeverity['agent-skills'];
    // the table is scripts/heuristic-precision.mjs's, on these labels and the build's presets
    const table = decisionTable(decisions(metas, [...rows, tuning], repositories), presetOf);
    return { base, table };
  }

  const heuristicCodes = () =>
    metas
      .filter((m) => m.certainty === 'heuristic')
      .map((m) => m.code)
      .sort();
  const head = [
    `heuristic rules on the held-out rounds: precision = TRUE / (TRUE + FALSE + BORDERLINE); the default set needs ${pct(BAR)} on at least ${MIN_LABELS} labels`,
    '(left out: rounds that taught a change of the rule, and labels a changed threshold no longer reaches)',
    '',
  ];

  it('agrees (exit 0): skill-windows-path, on under agent-skills, measured; skill-name-vague below the bar', () => {
    const { base, table } = lists({ 'skill-windows-path': [MIN_LABELS, 0], 'skill-name-vague': [10, 10] });
    const r = accuracy(['--heuristics', '--labels', 'labels.tsv', '--repositories', 'repositories.tsv'], { cwd: base });
    const notDefault = heuristicCodes()
      .filter((c) => c !== 'skill-windows-path')
      .map(
        (c) =>
          `  not in the default set: ${c}: ${
            NOT_DEFAULT[c] ??
            (c === 'skill-name-vague' ? `50.0 % of 20 held-out labels, below ${pct(BAR)}` : 'not measured: no held-out label')
          }`,
      );
    expect(r).toEqual({
      status: 0,
      stderr: '',
      stdout: [
        ...head,
        table,
        '',
        ...notDefault,
        '',
        'the agent-skills preset of this build agrees: every rule not in the default set is off there, every other heuristic on',
        '',
      ].join('\n'),
    });
  });

  it('disagrees (exit 1): a measured rule off under agent-skills, a rule on there with too few labels', () => {
    const { base, table } = lists({ 'skill-windows-path': [MIN_LABELS - 1, 0], 'skill-name-vague': [MIN_LABELS, 0] });
    const r = accuracy(['--heuristics', '--labels', join(base, 'labels.tsv'), '--repositories', join(base, 'repositories.tsv')]);
    const notDefault = heuristicCodes()
      .filter((c) => c !== 'skill-name-vague')
      .map(
        (c) =>
          `  not in the default set: ${c}: ${
            NOT_DEFAULT[c] ??
            (c === 'skill-windows-path'
              ? `too few labels to measure (${MIN_LABELS - 1} < ${MIN_LABELS}); kept out, conservatively`
              : 'not measured: no held-out label')
          }`,
      );
    expect(r).toEqual({
      status: 1,
      stderr: '',
      stdout: [
        ...head,
        table,
        '',
        ...notDefault,
        '',
        'the agent-skills preset of this build disagrees on: skill-name-vague (off), skill-windows-path (warning)',
        '',
      ].join('\n'),
    });
  });
});

/** A Claude Code skill in a folder whose name ends in a dot: broken links on lines 8, 10 and 20. */
const MAPS = '.claude/skills/maps./SKILL.md';

describe('npm run accuracy -- --explain-gone', () => {
  let args: string[];
  beforeAll(() => {
    const base = temps.dir('loopkit-accuracy-more-');
    const body = Array.from({ length: 20 }, (_, i) =>
      i + 1 === 8 ? 'See [a](a.md).' : i + 1 === 10 ? 'See [b](b.md).' : i + 1 === 20 ? 'See [c](c.md).' : 'Text.',
    );
    write(
      join(base, 'snapshots', 'acme__skills', MAPS),
      `---\nname: drawing-maps\ndescription: Draws maps of a codebase.\n---\n${body.slice(4).join('\n')}\n`,
    );
    write(
      join(base, 'snapshots', 'beta__tools', '.claude', 'skills', 'writing-notes', 'SKILL.md'),
      '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\nWrite them.\n',
    );
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\nbeta/tools\t${B}\ts\nacme/skills\t${A}\ts\n`);
    const acme = (line: number, code: string, verdict: string, reason: string) =>
      `acme/skills\t${A}\t${MAPS}\t${line}\t${code}\t${verdict}\t${reason}\n`;
    writeFileSync(
      join(base, 'labels.tsv'),
      HEADER +
        `beta/tools\t${B}\t.claude/skills/writing-notes/SKILL.md\t5\tskill-broken-link\tFALSE\twas a false positive\n` +
        acme(2, 'skill-name-mismatch-dir', 'TRUE', 'the name differs') +
        acme(3, 'skill-description-missing-trigger', 'TRUE', 'no when-to-use') +
        acme(3, 'skill-metadata-too-many-tokens', 'BORDERLINE', '105 cl100k tokens (recounted)') +
        acme(4, 'skill-metadata-too-many-tokens', 'TRUE', '110 cl100k tokens (recounted)') +
        acme(5, 'skill-metadata-too-many-tokens', 'TRUE', 'too many tokens, not counted') +
        acme(9, 'skill-broken-link', 'TRUE', 'a broken link') +
        acme(21, 'skill-broken-link', 'FALSE', 'a link made at build time') +
        acme(11, 'skill-broken-link', 'TRUE', 'another broken link') +
        acme(30, 'skill-broken-link', 'TRUE', 'a lost broken link') +
        acme(40, 'skill-broken-link', 'TRUE', 'a fixed broken link'),
    );
    writeFileSync(
      join(base, 'moved.tsv'),
      `repo\tfile\tline\tcode\treason\nacme/skills\t${MAPS}\t40\tskill-broken-link\tthe link was fixed upstream\n`,
    );
    args = [
      join(base, 'snapshots'),
      '--labels',
      join(base, 'labels.tsv'),
      '--repositories',
      join(base, 'repositories.tsv'),
      '--moved',
      join(base, 'moved.tsv'),
      '--explain-gone',
    ];
  });

  const label = (line: number, code: string, verdict: string, reason: string, $line: number) => ({
    $line,
    repo: 'acme/skills',
    commit: A,
    file: MAPS,
    line: String(line),
    code,
    verdict,
    reason,
  });
  const moved = (line: number) => ({
    kind: 'moved',
    text: `the same file's finding of this code is now at line ${line}, which has no label (the finding moved)`,
  });
  const unexplained = { kind: 'unexplained', text: 'not reported under strict with every target, and no reason in accuracy/moved.tsv' };

  it('--json: each gone label with its reason, by repository; the nearest unlabelled line taken once; exit 1 for a lost TRUE one', () => {
    const r = accuracy([...args, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).gone).toEqual([
      {
        ...label(2, 'skill-name-mismatch-dir', 'TRUE', 'the name differs', 3),
        why: {
          kind: 'untargeted loader',
          text: 'reported when every target is named: only a loader the skill is not written for rejects it (docs/targets.md)',
        },
      },
      {
        ...label(3, 'skill-description-missing-trigger', 'TRUE', 'no when-to-use', 4),
        why: { kind: 'strict only', text: 'reported under --preset strict: the rule is not in the default set (docs/presets.md)' },
      },
      {
        ...label(3, 'skill-metadata-too-many-tokens', 'BORDERLINE', '105 cl100k tokens (recounted)', 5),
        why: { kind: 'threshold', text: '105 tokens, not past the 110 the rule now reports past' },
      },
      {
        ...label(4, 'skill-metadata-too-many-tokens', 'TRUE', '110 cl100k tokens (recounted)', 6),
        why: { kind: 'threshold', text: '110 tokens, not past the 110 the rule now reports past' },
      },
      { ...label(5, 'skill-metadata-too-many-tokens', 'TRUE', 'too many tokens, not counted', 7), why: unexplained },
      // 8 and 10 are as near to 9: the first; 21 takes 20, 11 what is left
      { ...label(9, 'skill-broken-link', 'TRUE', 'a broken link', 8), why: moved(8) },
      { ...label(21, 'skill-broken-link', 'FALSE', 'a link made at build time', 9), why: moved(20) },
      { ...label(11, 'skill-broken-link', 'TRUE', 'another broken link', 10), why: moved(10) },
      { ...label(30, 'skill-broken-link', 'TRUE', 'a lost broken link', 11), why: unexplained },
      {
        ...label(40, 'skill-broken-link', 'TRUE', 'a fixed broken link', 12),
        why: { kind: 'recorded', text: 'the link was fixed upstream' },
      },
      {
        $line: 2,
        repo: 'beta/tools',
        commit: B,
        file: '.claude/skills/writing-notes/SKILL.md',
        line: '5',
        code: 'skill-broken-link',
        verdict: 'FALSE',
        reason: 'was a false positive',
        why: unexplained,
      },
    ]);
  });

  it('the text report: how many of each kind and verdict, then the unexplained ones', () => {
    const r = accuracy(args);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(
      [
        'loopkit accuracy: 11 labels, 2 repositories',
        '',
        'repositories',
        '  beta/tools [s]: 1 skills, exit 0, 0 findings, 0 errors (0 labelled FALSE), commit not verifiable (not a git checkout)',
        '  acme/skills [s]: 1 skills, exit 1, 3 findings, 3 errors (0 labelled FALSE), commit not verifiable (not a git checkout)',
        '',
        'per severity',
        '         findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  error         3     0      0           0           3          —                    —',
        '',
        'per set',
        '     findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  s         3     0      0           0           3          —                    —',
        '',
        'per set and severity',
        '           findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  s error         3     0      0           0           3          —                    —',
        '',
        'per code',
        '                             findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  skill-broken-link (error)         3     0      0           0           3          —                    —',
        '',
        'all',
        '       findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  all         3     0      0           0           3          —                    —',
        '',
        'unlabelled findings: 3',
        `  acme/skills ${MAPS}:8 error skill-broken-link: Link 'a.md' points at '.claude/skills/maps./a.md', which does not exist`,
        `  acme/skills ${MAPS}:10 error skill-broken-link: Link 'b.md' points at '.claude/skills/maps./b.md', which does not exist`,
        `  acme/skills ${MAPS}:20 error skill-broken-link: Link 'c.md' points at '.claude/skills/maps./c.md', which does not exist`,
        '',
        'labels no longer reported (fixed, or the finding moved): 11',
        '  moved (FALSE): 1',
        '  moved (TRUE): 2',
        '  recorded (TRUE): 1',
        '  strict only (TRUE): 1',
        '  threshold (BORDERLINE): 1',
        '  threshold (TRUE): 1',
        '  unexplained (FALSE): 1',
        '  unexplained (TRUE): 2',
        '  untargeted loader (TRUE): 1',
        'unexplained (to investigate, or to record in accuracy/moved.tsv): 3',
        `  acme/skills ${MAPS}:5 skill-metadata-too-many-tokens (TRUE: too many tokens, not counted)`,
        `  acme/skills ${MAPS}:30 skill-broken-link (TRUE: a lost broken link)`,
        '  beta/tools .claude/skills/writing-notes/SKILL.md:5 skill-broken-link (FALSE: was a false positive)',
        '',
      ].join('\n'),
    );
  });

  it('without --moved, the reasons of accuracy/moved.tsv are read', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    const row = readTsv(join(ROOT, 'accuracy', 'moved.tsv'), ['repo', 'file', 'line', 'code', 'reason'])[0]!;
    write(
      join(base, 'snapshots', row.repo!.replace('/', '__'), row.file!),
      '---\nname: x\ndescription: Does x. Use when asked for x.\n---\n\n# X\n\nDo x.\n',
    );
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\n${row.repo}\t${A}\ts\n`);
    writeFileSync(join(base, 'labels.tsv'), `${HEADER}${row.repo}\t${A}\t${row.file}\t${row.line}\t${row.code}\tTRUE\tjudged\n`);
    const r = accuracy([
      join(base, 'snapshots'),
      '--labels',
      join(base, 'labels.tsv'),
      '--repositories',
      join(base, 'repositories.tsv'),
      '--explain-gone',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).gone).toEqual([
      {
        $line: 2,
        repo: row.repo,
        commit: A,
        file: row.file,
        line: row.line,
        code: row.code,
        verdict: 'TRUE',
        reason: 'judged',
        why: { kind: 'recorded', text: row.reason },
      },
    ]);
  });
});

describe('npm run accuracy: the lists cut at 50', () => {
  let base: string;
  beforeAll(() => {
    base = temps.dir('loopkit-accuracy-more-');
    const links = Array.from({ length: 51 }, (_, i) => `[l${i + 8}](l${i + 8}.md)`);
    write(
      join(base, 'snapshots', 'many__links', 'skills', 'writing-notes', 'SKILL.md'),
      `---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\n${links.join('\n')}\n`,
    );
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\nmany/links\t${A}\ts\n`);
  });
  const FILE = 'skills/writing-notes/SKILL.md';
  const goneLabel = (line: number) => `many/links\t${A}\t${FILE}\t${line}\tskill-broken-link\tFALSE\tr${line}\n`;
  const unlabelledLine = (line: number) =>
    `  many/links ${FILE}:${line} error skill-broken-link: Link 'l${line}.md' points at 'skills/writing-notes/l${line}.md', which does not exist`;
  const goneLine = (line: number) => `  many/links ${FILE}:${line} skill-broken-link (FALSE: r${line})`;
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  const args = () => ['snapshots', '--labels', 'labels.tsv', '--repositories', 'repositories.tsv'];

  it('51 unlabelled and 51 gone: 50 of each and how many more', () => {
    writeFileSync(join(base, 'labels.tsv'), HEADER + range(100, 51).map(goneLabel).join(''));
    expect(accuracy(args(), { cwd: base })).toEqual({
      status: 0,
      stderr: '',
      stdout: [
        'loopkit accuracy: 51 labels, 1 repositories',
        '',
        'repositories',
        '  many/links [s]: 1 skills, exit 1, 51 findings, 51 errors (0 labelled FALSE), commit not verifiable (not a git checkout)',
        '',
        'per severity',
        '         findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  error        51     0      0           0          51          —                    —',
        '',
        'per set',
        '     findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  s        51     0      0           0          51          —                    —',
        '',
        'per set and severity',
        '           findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  s error        51     0      0           0          51          —                    —',
        '',
        'per code',
        '                             findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  skill-broken-link (error)        51     0      0           0          51          —                    —',
        '',
        'all',
        '       findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  all        51     0      0           0          51          —                    —',
        '',
        'unlabelled findings: 51',
        ...range(8, 50).map(unlabelledLine),
        '  … and 1 more (--todo <file> writes them all)',
        '',
        'labels no longer reported (fixed, or the finding moved): 51',
        ...range(100, 50).map(goneLine),
        '  … and 1 more (--explain-gone says why each is gone)',
        '',
      ].join('\n'),
    });
  });

  it('50 unlabelled and 50 gone: all of them, nothing more', () => {
    writeFileSync(
      join(base, 'labels.tsv'),
      `${HEADER}many/links\t${A}\t${FILE}\t8\tskill-broken-link\tTRUE\ta broken link\n${range(100, 50).map(goneLabel).join('')}`,
    );
    expect(accuracy(args(), { cwd: base })).toEqual({
      status: 0,
      stderr: '',
      stdout: [
        'loopkit accuracy: 51 labels, 1 repositories',
        '',
        'repositories',
        '  many/links [s]: 1 skills, exit 1, 51 findings, 51 errors (0 labelled FALSE), commit not verifiable (not a git checkout)',
        '',
        'per severity',
        '         findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  error        51     1      0           0          50    100.0 %              100.0 %',
        '',
        'per set',
        '     findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  s        51     1      0           0          50    100.0 %              100.0 %',
        '',
        'per set and severity',
        '           findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  s error        51     1      0           0          50    100.0 %              100.0 %',
        '',
        'per code',
        '                             findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  skill-broken-link (error)        51     1      0           0          50    100.0 %              100.0 %',
        '',
        'all',
        '       findings  TRUE  FALSE  BORDERLINE  unlabelled  precision  borderline as false',
        '  all        51     1      0           0          50    100.0 %              100.0 %',
        '',
        'unlabelled findings: 50',
        ...range(9, 50).map(unlabelledLine),
        '',
        'labels no longer reported (fixed, or the finding moved): 50',
        ...range(100, 50).map(goneLine),
        '',
      ].join('\n'),
    });
  });
});

describe('npm run accuracy --clone', () => {
  const saved: Record<string, string | undefined> = {};
  const KEYS = ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0'];
  afterEach(() => {
    for (const k of KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('clones a missing snapshot at its commit (from where https://github.com/ is rewritten to), then checks and verifies it', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    const remote = join(base, 'remote', 'acme', 'skills.git');
    const git = (cwd: string, ...a: string[]) => {
      const r = spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...a], {
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr}`);
      return r.stdout.trim();
    };
    write(
      join(remote, 'skills', 'writing-notes', 'SKILL.md'),
      '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\nWrite them.\n',
    );
    git(remote, 'init', '-q');
    git(remote, 'add', '-A');
    git(remote, 'commit', '-q', '-m', 'one');
    const first = git(remote, 'rev-parse', 'HEAD');
    // the tip has a broken link: the snapshot at the first commit has none
    write(
      join(remote, 'skills', 'writing-notes', 'SKILL.md'),
      '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\nSee [the guide](guide.md).\n',
    );
    git(remote, 'commit', '-q', '-a', '-m', 'two');
    writeFileSync(join(base, 'repositories.tsv'), `repo\tcommit\tset\nacme/skills\t${first}\ttuning\nother/repo\t${B}\theld-out 1\n`);
    writeFileSync(join(base, 'labels.tsv'), HEADER);
    const lists = ['--labels', join(base, 'labels.tsv'), '--repositories', join(base, 'repositories.tsv')];
    for (const k of KEYS) saved[k] = process.env[k];
    process.env.GIT_CONFIG_COUNT = '1';
    process.env.GIT_CONFIG_KEY_0 = `url.${join(base, 'remote')}/.insteadOf`;
    process.env.GIT_CONFIG_VALUE_0 = 'https://github.com/';
    // a snapshots directory that does not exist, nor its parent: --clone makes them
    const made = join(base, 'made', 'snapshots');
    const r = accuracy([made, '--clone', ...lists, '--repo', 'acme/skills', '--json']);
    expect(r.stderr).toBe(`cloning acme/skills at ${first.slice(0, 12)}…\n`);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      runs: [{ repo: 'acme/skills', set: 'tuning', skills: 1, exit: 0, errors: 0, falseErrors: 0, findings: 0, verified: true }],
      all: t(0, 0, 0, 0, 0, null, null),
      bySeverity: {},
      byCode: {},
      bySet: {},
      bySetSeverity: {},
      unlabelled: [],
      gone: [],
    });
    expect(git(join(made, 'acme__skills'), 'rev-parse', 'HEAD')).toBe(first);
    // other/repo has its snapshot already (no git checkout): only acme/skills is cloned
    const dir = join(base, 'snapshots');
    write(
      join(dir, 'other+repo', 'skills', 'writing-notes', 'SKILL.md'),
      '---\nname: writing-notes\ndescription: Writes meeting notes. Use when asked for notes.\n---\n\n# Notes\n\nWrite them.\n',
    );
    expect(accuracy([dir, '--clone', ...lists])).toEqual({
      status: 0,
      stderr: `cloning acme/skills at ${first.slice(0, 12)}…\n`,
      stdout: [
        'loopkit accuracy: 0 labels, 2 repositories',
        '',
        'repositories',
        '  acme/skills [tuning]: 1 skills, exit 0, 0 findings, 0 errors (0 labelled FALSE)',
        '  other/repo [held-out 1]: 1 skills, exit 0, 0 findings, 0 errors (0 labelled FALSE), commit not verifiable (not a git checkout)',
        '',
        ...EMPTY_TABLES,
        'unlabelled findings: 0',
        '',
        'labels no longer reported (fixed, or the finding moved): 0',
        '',
      ].join('\n'),
    });
    expect(git(join(dir, 'acme__skills'), 'rev-parse', 'HEAD')).toBe(first);
  });
});

describe('readTsv', () => {
  it('reads the rows after the header: comments, blank lines and spaces left out, a missing cell empty', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    const file = join(base, 'list.tsv');
    writeFileSync(
      file,
      '# a comment\n\n \t \n# another\n repo \tcommit\t set\n' +
        'acme/x\t c1 \theld-out 1\n' +
        '# between rows\n\n' +
        'short\tc2\n' +
        'extra\tc3\ts\tmore\n' +
        'with #\tc4\ts #\n',
    );
    vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`process.exit(${code})`);
    }) as never);
    const rows = [
      { $line: 6, repo: 'acme/x', commit: 'c1', set: 'held-out 1' },
      { $line: 9, repo: 'short', commit: 'c2', set: '' },
      { $line: 10, repo: 'extra', commit: 'c3', set: 's' },
      { $line: 11, repo: 'with #', commit: 'c4', set: 's #' },
    ];
    expect(readTsv(file, ['repo', 'commit', 'set'])).toEqual(rows);
    // no columns named: any header will do
    expect(readTsv(file)).toEqual(rows);
  });

  it('a missing file: the usage error on stderr and exit code 2; another failure is thrown', () => {
    const base = temps.dir('loopkit-accuracy-more-');
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const missing = join(base, 'none.tsv');
    expect(readTsv(missing, ['repo'])).toBe(undefined);
    expect(err.mock.calls).toEqual([[usageError(`${missing}: no such file`)]]);
    expect(exit.mock.calls).toEqual([[2]]);
    let thrown: unknown = null;
    try {
      readTsv(base, ['repo']);
    } catch (e) {
      thrown = e;
    }
    expect((thrown as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(exit.mock.calls).toEqual([[2]]);
    expect(err.mock.calls).toEqual([[usageError(`${missing}: no such file`)]]);
  });
});
