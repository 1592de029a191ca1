// `npm run accuracy -- <snapshots-dir>`: runs this build of loopkit over snapshots of public skill
// repositories, as a new user would (no configuration of ours, no cache), and holds what it reports
// against the labelled findings in accuracy/labels.tsv (docs/accuracy.md, "The labelled corpus").
//
// A snapshot is a folder `<owner>__<name>` (or `<owner>+<name>`) inside <snapshots-dir> holding the
// repository's files at the commit accuracy/repositories.tsv names for it. `--clone` makes the
// missing ones with git (network needed). Nothing is written into a snapshot.
//
// Prints precision per severity, per code and per set, the findings that have no label yet (to be
// judged; `--todo <file>` writes them as label lines with an empty verdict) and the labels this
// build no longer reports (`--explain-gone`: why each one is gone, exit code 1 when a TRUE one has
// no reason). Exit code 0, or 2 for a usage error.
//
// `npm run accuracy -- --heuristics` needs no snapshots: it prints each heuristic rule's precision on
// the held-out rounds from the labels alone, the decision it gives (the default set of agent-skills,
// or only `strict`; scripts/heuristic-precision.mjs) and the build's severity under agent-skills.
// Exit code 1 when the two disagree.
//
// `main(argv, io)` runs it in the calling process (the tests: per-test coverage of the mutation run
// sees it) and returns the exit code; what it prints goes to io.stdout and io.stderr.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decisionTable, decisions, BAR, MIN_LABELS, THRESHOLDS, pct } from './heuristic-precision.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(here, 'bin', 'loopkit.js');
const VERDICTS = ['TRUE', 'FALSE', 'BORDERLINE'];

/** The end of a run before its report: what it says on stderr and its exit code (2, a usage error). */
class Exit extends Error {
  constructor(stderr, status = 2) {
    super(stderr);
    this.stderr = stderr;
    this.status = status;
  }
}

function usage(message) {
  throw new Exit(
    (message ? `accuracy: ${message}\n` : '') +
      [
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
      ].join('\n'),
  );
}

function parseArgs(argv, cwd) {
  const opts = {
    dir: null,
    labels: join(here, 'accuracy', 'labels.tsv'),
    repositories: join(here, 'accuracy', 'repositories.tsv'),
    repos: [],
    sets: [],
    todo: null,
    json: false,
    clone: false,
    heuristics: false,
    explain: false,
    moved: join(here, 'accuracy', 'moved.tsv'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === '--labels') opts.labels = resolve(cwd, value());
    else if (a === '--repositories') opts.repositories = resolve(cwd, value());
    else if (a === '--repo') opts.repos.push(value());
    else if (a === '--set') opts.sets.push(value());
    else if (a === '--todo') opts.todo = resolve(cwd, value());
    else if (a === '--json') opts.json = true;
    else if (a === '--clone') opts.clone = true;
    else if (a === '--heuristics') opts.heuristics = true;
    else if (a === '--explain-gone') opts.explain = true;
    else if (a === '--moved') opts.moved = resolve(cwd, value());
    else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else if (opts.dir === null) opts.dir = resolve(cwd, a);
    else usage(`one snapshots directory, not '${a}' too`);
  }
  if (opts.dir === null && !opts.heuristics) usage('the snapshots directory is missing');
  return opts;
}

/**
 * Rows of a tab-separated file with a header line; `#` lines are comments. A missing file or header
 * is a usage error: its message on stderr and exit code 2 (scripts/build-docs.mjs, the tests).
 */
export function readTsv(file, columns = []) {
  try {
    return tsvRows(file, columns);
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    process.stderr.write(e.stderr);
    process.exit(e.status);
  }
}

/** readTsv for `main`: a usage error is thrown (an Exit). */
function tsvRows(file, columns = []) {
  if (!existsSync(file)) usage(`${file}: no such file`);
  const lines = readFileSync(file, 'utf8').split('\n');
  let header = null;
  const rows = [];
  lines.forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const cells = line.split('\t');
    if (header === null) {
      // the first line that is not a comment names the columns
      const missing = columns.filter((c) => !cells.map((x) => x.trim()).includes(c));
      if (missing.length > 0)
        usage(
          `${file}:${i + 1}: the header line must name the columns ${columns.join(', ')} (tab-separated); missing: ${missing.join(', ')}`,
        );
      header = cells.map((x) => x.trim());
      return;
    }
    const row = { $line: i + 1 };
    header.forEach((h, j) => (row[h] = (cells[j] ?? '').trim()));
    rows.push(row);
  });
  return rows;
}

/** The label key of a finding: repository, file, line and code. */
const keyOf = (repo, file, line, code) => `${repo}\t${file}\t${line ?? ''}\t${code}`;

function loadLabels(file) {
  const labels = new Map();
  const problems = [];
  for (const row of tsvRows(file, ['repo', 'commit', 'file', 'line', 'code', 'verdict'])) {
    const verdict = row.verdict.toUpperCase();
    if (!VERDICTS.includes(verdict)) {
      problems.push(`${file}:${row.$line}: verdict '${row.verdict}' is not one of ${VERDICTS.join(', ')}`);
      continue;
    }
    if (row.reason === '') problems.push(`${file}:${row.$line}: a label needs a one-line reason`);
    const key = keyOf(row.repo, row.file, row.line, row.code);
    if (labels.has(key)) problems.push(`${file}:${row.$line}: a second label for ${row.repo} ${row.file}:${row.line} ${row.code}`);
    labels.set(key, { ...row, verdict });
  }
  if (problems.length > 0) throw new Exit(`${problems.join('\n')}\n`);
  return labels;
}

/** The folder of a repository's snapshot, or null. */
function snapshotOf(dir, repo) {
  for (const name of [repo.replace('/', '__'), repo.replace('/', '+')]) {
    const p = join(dir, name);
    if (existsSync(p) && statSync(p).isDirectory()) return p;
  }
  return null;
}

/** The commit of a snapshot that is a git checkout, else null (an exported tree cannot tell). */
function headOf(path) {
  if (!existsSync(join(path, '.git'))) return null;
  try {
    return execFileSync('git', ['-C', path, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

function clone(dir, repo, commit, io) {
  const out = join(dir, repo.replace('/', '__'));
  io.stderr(`cloning ${repo} at ${commit.slice(0, 12)}…\n`);
  const git = (...args) => execFileSync('git', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  git('init', '-q', out);
  git('-C', out, 'fetch', '-q', '--depth', '1', `https://github.com/${repo}.git`, commit);
  git('-C', out, 'checkout', '-q', 'FETCH_HEAD');
}

/** What this build reports for a snapshot: checked as a new user would, from its root. */
function check(path, env, extra = []) {
  const r = spawnSync(process.execPath, [BIN, 'check', '.', '--format', 'json', '--no-cache', ...extra], {
    cwd: path,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...env, NO_COLOR: '1', LOOPKIT_NO_CACHE: '1' },
  });
  if (r.status !== 0 && r.status !== 1) {
    const said = (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' / ');
    // a run killed by a signal says nothing: the error is never empty
    return { error: said || `ended by ${r.signal ?? 'an unknown cause'} without a word`, exit: r.status };
  }
  const report = JSON.parse(r.stdout);
  return { exit: r.status, skills: report.skills_checked, diagnostics: report.diagnostics };
}

function tally() {
  return { findings: 0, TRUE: 0, FALSE: 0, BORDERLINE: 0, unlabelled: 0 };
}

/** TRUE / (TRUE + FALSE), and with the borderline calls counted against loopkit. */
function precision(t) {
  const judged = t.TRUE + t.FALSE;
  return {
    precision: judged === 0 ? null : t.TRUE / judged,
    strict: judged + t.BORDERLINE === 0 ? null : t.TRUE / (judged + t.BORDERLINE),
  };
}

function table(title, rows) {
  const head = ['', 'findings', 'TRUE', 'FALSE', 'BORDERLINE', 'unlabelled', 'precision', 'borderline as false'];
  const body = rows.map(([name, t]) => {
    const p = precision(t);
    return [name, t.findings, t.TRUE, t.FALSE, t.BORDERLINE, t.unlabelled, pct(p.precision), pct(p.strict)].map(String);
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const fmt = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [`${title}`, `  ${fmt(head)}`, ...body.map((r) => `  ${fmt(r)}`), ''].join('\n');
}

/** `--heuristics`: the table of scripts/heuristic-precision.mjs against the build's presets. */
function heuristics(opts, io) {
  const labels = tsvRows(opts.labels, ['repo', 'file', 'line', 'code', 'verdict']);
  const repositories = tsvRows(opts.repositories, ['repo', 'commit', 'set']);
  const r = spawnSync(process.execPath, [BIN, 'rules', '--json'], { encoding: 'utf8', env: io.env });
  if (r.status !== 0) usage(`loopkit rules --json failed: ${r.stderr.trim()}`);
  const metas = JSON.parse(r.stdout);
  const presetOf = (code) => metas.find((m) => m.code === code)?.presetSeverity['agent-skills'];
  const rows = decisions(metas, labels, repositories);
  const disagree = rows.filter((row) => (row.decision !== 'default set') !== (presetOf(row.code) === 'off'));
  const out = [
    `heuristic rules on the held-out rounds: precision = TRUE / (TRUE + FALSE + BORDERLINE); the default set needs ${pct(BAR)} on at least ${MIN_LABELS} labels`,
    '(left out: rounds that taught a change of the rule, and labels a changed threshold no longer reaches)',
    '',
    decisionTable(rows, presetOf),
    '',
    ...rows.filter((row) => row.decision !== 'default set').map((row) => `  not in the default set: ${row.code}: ${row.reason}`),
    '',
    disagree.length === 0
      ? 'the agent-skills preset of this build agrees: every rule not in the default set is off there, every other heuristic on'
      : `the agent-skills preset of this build disagrees on: ${disagree.map((row) => `${row.code} (${presetOf(row.code)})`).join(', ')}`,
  ];
  io.stdout(`${out.join('\n')}\n`);
  return disagree.length === 0 ? 0 : 1;
}

/** Every target loopkit knows, named on the command line to see what a loader the skill does not target would say. */
const ALL_TARGETS = 'claude-code,copilot,codex,claude-api,spec';

/**
 * Why labels are no longer reported, each one: the repository is checked again as `strict` (the
 * heuristics outside the default set on) and with every target named (a condition only an untargeted
 * loader rejects is reported again); a label found there has that reason. One that neither run
 * reports is under a rule's changed threshold (scripts/heuristic-precision.mjs) or has its reason
 * written in accuracy/moved.tsv (a finding fixed as a false positive, a rule narrowed on purpose);
 * any other is unexplained, and a TRUE one among them is a lost finding to investigate.
 */
function explainGone(gone, pathOf, movedFile, labels, env) {
  const moved = new Map();
  if (existsSync(movedFile))
    for (const row of tsvRows(movedFile, ['repo', 'file', 'line', 'code', 'reason']))
      moved.set(keyOf(row.repo, row.file, row.line, row.code), row.reason);
  const out = [];
  for (const repo of [...new Set(gone.map((g) => g.repo))].sort()) {
    const path = pathOf(repo);
    // every finding of both runs, by file and code: where a gone label's finding may have moved to
    const lines = new Map();
    const keys = (extra) => {
      const r = check(path, env, extra);
      return new Set(
        (r.diagnostics ?? []).map((d) => {
          const file = d.location.path.replace(/^\.\//u, '');
          const at = `${file}\t${d.code}`;
          if (!lines.has(at)) lines.set(at, new Set());
          lines.get(at).add(d.location.line);
          return keyOf(repo, file, d.location.line, d.code);
        }),
      );
    };
    const strict = keys(['--preset', 'strict']);
    const targets = keys(['--target', ALL_TARGETS]);
    // a label is keyed by its line: a finding that moved (the rule now points at another line of the
    // same file) leaves its label gone and reports an unlabelled line. Each gone label of a file and
    // code takes the nearest such line, once: the same finding, moved.
    const unlabelledLines = new Map();
    for (const [at, set] of lines) {
      const [file, code] = at.split('\t');
      unlabelledLines.set(
        at,
        [...set].filter((line) => !labels.has(keyOf(repo, file, line, code))).sort((a, b) => a - b),
      );
    }
    const movedTo = (g) => {
      const free = unlabelledLines.get(`${g.file}\t${g.code}`) ?? [];
      if (free.length === 0) return null;
      const line = free.reduce((best, l) => (Math.abs(l - Number(g.line)) < Math.abs(best - Number(g.line)) ? l : best));
      free.splice(free.indexOf(line), 1);
      return line;
    };
    for (const g of gone.filter((x) => x.repo === repo)) {
      const key = keyOf(g.repo, g.file, g.line, g.code);
      const threshold = THRESHOLDS[g.code];
      const measure = threshold ? threshold.measure(g) : null;
      let why;
      let to;
      if (strict.has(key))
        why = { kind: 'strict only', text: 'reported under --preset strict: the rule is not in the default set (docs/presets.md)' };
      else if (targets.has(key))
        why = {
          kind: 'untargeted loader',
          text: 'reported when every target is named: only a loader the skill is not written for rejects it (docs/targets.md)',
        };
      else if (threshold && measure !== null && measure <= threshold.reportedOver)
        why = { kind: 'threshold', text: `${measure} ${threshold.unit}, not past the ${threshold.reportedOver} the rule now reports past` };
      else if (moved.has(key)) why = { kind: 'recorded', text: moved.get(key) };
      else if ((to = movedTo(g)) !== null)
        why = { kind: 'moved', text: `the same file's finding of this code is now at line ${to}, which has no label (the finding moved)` };
      else why = { kind: 'unexplained', text: 'not reported under strict with every target, and no reason in accuracy/moved.tsv' };
      out.push({ ...g, why });
    }
  }
  return out;
}

/**
 * The script on the arguments `argv` (without node and the script): its exit code. What it prints goes
 * to `io.stdout` and `io.stderr`; `io.env` is the environment of the loopkit it runs, `io.cwd` the
 * directory relative paths are taken from.
 */
export function main(argv, io = {}) {
  const full = {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    env: process.env,
    cwd: process.cwd(),
    ...io,
  };
  try {
    return run(argv, full);
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    full.stderr(e.stderr);
    return e.status;
  }
}

function run(argv, io) {
  const opts = parseArgs(argv, io.cwd);
  if (!existsSync(BIN) || !existsSync(join(here, 'dist', 'cli.js'))) usage('build loopkit first (npm run build)');
  if (opts.heuristics) return heuristics(opts, io);
  if (!existsSync(opts.dir)) {
    if (!opts.clone) usage(`no such directory: ${opts.dir}`);
    mkdirSync(opts.dir, { recursive: true });
  }
  const labels = loadLabels(opts.labels);
  let repositories = tsvRows(opts.repositories, ['repo', 'commit', 'set']);
  if (opts.repos.length > 0) repositories = repositories.filter((r) => opts.repos.includes(r.repo));
  if (opts.sets.length > 0) repositories = repositories.filter((r) => opts.sets.some((s) => r.set === s || r.set.startsWith(`${s} `)));
  if (repositories.length === 0) usage('no repository of accuracy/repositories.tsv is selected');

  const bySeverity = new Map();
  const byCode = new Map();
  const bySet = new Map();
  // the figures a set is held to are per severity: "held-out-24 error", "held-out-24 warning" …
  const bySetSeverity = new Map();
  const all = tally();
  const unlabelled = [];
  const reported = new Set();
  const runs = [];
  const paths = new Map();
  const count = (map, name, verdict) => {
    if (!map.has(name)) map.set(name, tally());
    const t = map.get(name);
    t.findings++;
    t[verdict ?? 'unlabelled']++;
  };
  for (const { repo, commit, set } of repositories) {
    let path = snapshotOf(opts.dir, repo);
    if (path === null && opts.clone) {
      clone(opts.dir, repo, commit, io);
      path = snapshotOf(opts.dir, repo);
    }
    if (path === null) {
      runs.push({ repo, set, missing: true });
      continue;
    }
    const head = headOf(path);
    if (head !== null && head !== commit) {
      runs.push({ repo, set, error: `the snapshot is at ${head.slice(0, 12)}, the labels are for ${commit.slice(0, 12)}` });
      continue;
    }
    const r = check(path, io.env);
    if (r.error) {
      runs.push({ repo, set, error: `loopkit exited ${r.exit}: ${r.error}` });
      continue;
    }
    paths.set(repo, path);
    const run = {
      repo,
      set,
      skills: r.skills,
      exit: r.exit,
      errors: 0,
      falseErrors: 0,
      findings: r.diagnostics.length,
      verified: head !== null,
    };
    runs.push(run);
    for (const d of r.diagnostics) {
      const file = d.location.path.replace(/^\.\//u, '');
      const key = keyOf(repo, file, d.location.line, d.code);
      reported.add(key);
      const verdict = labels.get(key)?.verdict;
      const severity = d.severity.toLowerCase();
      if (severity === 'error') {
        run.errors++;
        if (verdict === 'FALSE') run.falseErrors++;
      }
      count(bySeverity, severity, verdict);
      count(byCode, `${d.code} (${severity})`, verdict);
      count(bySet, set, verdict);
      count(bySetSeverity, `${set} ${severity}`, verdict);
      all.findings++;
      all[verdict ?? 'unlabelled']++;
      if (verdict === undefined) unlabelled.push({ repo, commit, file, line: d.location.line, code: d.code, severity, message: d.message });
    }
  }
  const checked = new Set(runs.filter((r) => !r.missing && !r.error).map((r) => r.repo));
  let status = 0;
  let gone = [...labels.values()].filter((l) => checked.has(l.repo) && !reported.has(keyOf(l.repo, l.file, l.line, l.code)));
  if (opts.explain) {
    gone = explainGone(gone, (repo) => paths.get(repo), opts.moved, labels, io.env);
    // a TRUE finding lost without a reason is a regression: the run says so in its exit code
    if (gone.some((g) => g.verdict === 'TRUE' && g.why.kind === 'unexplained')) status = 1;
  }

  if (opts.todo) {
    const lines = ['repo\tcommit\tfile\tline\tcode\tseverity\tverdict\treason'];
    for (const u of unlabelled)
      lines.push([u.repo, u.commit, u.file, u.line ?? '', u.code, u.severity, '', u.message.replace(/\s+/gu, ' ')].join('\t'));
    writeFileSync(opts.todo, `${lines.join('\n')}\n`);
  }
  const order = ['error', 'warning', 'info'];
  const sevRows = [...bySeverity].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
  const setSevRows = [...bySetSeverity].sort((a, b) => {
    // the severity is the last word: a set's name may have spaces
    const split = (k) => [k.slice(0, k.lastIndexOf(' ')), k.slice(k.lastIndexOf(' ') + 1)];
    const [setA, sevA] = split(a[0]);
    const [setB, sevB] = split(b[0]);
    return setA < setB ? -1 : setA > setB ? 1 : order.indexOf(sevA) - order.indexOf(sevB);
  });
  if (opts.json) {
    const obj = (map) => Object.fromEntries([...map].map(([k, t]) => [k, { ...t, ...precision(t) }]));
    io.stdout(
      `${JSON.stringify({ runs, all: { ...all, ...precision(all) }, bySeverity: obj(new Map(sevRows)), byCode: obj(new Map([...byCode].sort())), bySet: obj(bySet), bySetSeverity: obj(new Map(setSevRows)), unlabelled, gone }, null, 2)}\n`,
    );
    return status;
  }
  const out = [];
  out.push(`loopkit accuracy: ${labels.size} labels, ${repositories.length} repositories\n`);
  out.push('repositories');
  for (const r of runs) {
    if (r.missing) out.push(`  ${r.repo}: no snapshot in ${opts.dir} (--clone makes it)`);
    else if (r.error) out.push(`  ${r.repo}: ${r.error}`);
    else
      out.push(
        `  ${r.repo} [${r.set}]: ${r.skills} skills, exit ${r.exit}, ${r.findings} findings, ${r.errors} errors (${r.falseErrors} labelled FALSE)${r.verified ? '' : ', commit not verifiable (not a git checkout)'}`,
      );
  }
  out.push('');
  out.push(table('per severity', sevRows));
  out.push(table('per set', [...bySet].sort()));
  out.push(table('per set and severity', setSevRows));
  out.push(table('per code', [...byCode].sort()));
  out.push(table('all', [['all', all]]));
  out.push(`unlabelled findings: ${unlabelled.length}${opts.todo ? ` (written to ${opts.todo})` : ''}`);
  for (const u of unlabelled.slice(0, 50)) out.push(`  ${u.repo} ${u.file}:${u.line ?? ''} ${u.severity} ${u.code}: ${u.message}`);
  if (unlabelled.length > 50) out.push(`  … and ${unlabelled.length - 50} more (--todo <file> writes them all)`);
  out.push('');
  out.push(`labels no longer reported (fixed, or the finding moved): ${gone.length}`);
  if (opts.explain) {
    const kinds = new Map();
    for (const g of gone) {
      const k = `${g.why.kind} (${g.verdict})`;
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    for (const [k, n] of [...kinds].sort()) out.push(`  ${k}: ${n}`);
    const lost = gone.filter((g) => g.why.kind === 'unexplained');
    out.push(`unexplained (to investigate, or to record in accuracy/moved.tsv): ${lost.length}`);
    for (const g of lost) out.push(`  ${g.repo} ${g.file}:${g.line} ${g.code} (${g.verdict}: ${g.reason})`);
  } else {
    for (const g of gone.slice(0, 50)) out.push(`  ${g.repo} ${g.file}:${g.line} ${g.code} (${g.verdict}: ${g.reason})`);
    if (gone.length > 50) out.push(`  … and ${gone.length - 50} more (--explain-gone says why each is gone)`);
  }
  io.stdout(`${out.join('\n')}\n`);
  return status;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));

export { keyOf, precision };
