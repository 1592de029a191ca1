/**
 * Command-line wiring only: arguments → lint() → reporter → exit code.
 * Exit codes: 0 no errors, 1 errors found, 2 usage, config or I/O failure. Never calls process.exit.
 *
 * Start-up matters (loopkit runs on every commit): the markdown parser and the YAML parser and
 * schema of the configuration are imported by the engine only when a file must be parsed (the
 * cache does not have it) or the configuration read; `--help` and `--version` load neither.
 */
import { Command, CommanderError, Option } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addOutputOptions, configFailure, maxWarnings, printReport, type CliIo, type OutputOptions } from './commands/output.js';
import { projectOf } from './api/project.js';
// `state` and `trace` (and the YAML and schema code they bring) are loaded when one of them runs
import type { StateOptions } from './commands/state.js';
import type { TraceOptions } from './commands/trace.js';
import { CONFIG_FILE, ConfigError } from './config/errors.js';
import { DEFAULT_IGNORES } from './discover/ignore.js';
import { cacheSettings } from './engine/cache.js';
import { PRESET_NAMES } from './config/presets.js';
import { TARGETS } from './model/targets.js';
import { UsageError } from './engine/errors.js';
import type { LintResult } from './engine/run.js';
import { fileConfig, lint } from './api/engine.js';
import type { RunnerOptions } from './engine/runner.js';
import { ProjectError } from './parse/errors.js';
import { dotGraph, jsonGraph, mermaidGraph } from './reporters/graph.js';
import { graphView, machineDiagnostics } from './reporters/graph-view.js';
import { displayPath } from './reporters/paths.js';
import { CACHE_DIR_HINT, registerCommands } from './commands/index.js';
import { wantsBaseline, withBaseline } from './commands/baseline.js';
import { closest } from './util/closest.js';
import { VERSION } from './version.js';

export { colorEnabled, type CliIo } from './commands/output.js';

interface CheckOptions extends OutputOptions {
  fix?: boolean;
  fixDryRun?: boolean;
  baseline?: string | false;
  updateBaseline?: boolean;
  verbose?: boolean;
  rule?: string[];
  cache?: boolean;
  cacheLocation?: string;
  concurrency?: string;
  timing?: boolean;
  preset?: string;
  ignorePattern?: string[];
  target?: string[];
  printConfig?: string;
}

/** The worker entry next to this module: present in the bundle (dist/), not when run from source. */
function workerScript(): URL | undefined {
  const url = new URL('./worker.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** --concurrency: a whole number of threads, `auto` or `off`. */
function concurrency(value: string | undefined): RunnerOptions['concurrency'] {
  if (value === undefined || value === 'auto') return 'auto';
  if (value === 'off') return 'off';
  if (/^[1-9]\d{0,2}$/u.test(value)) return Number(value);
  throw new UsageError(`--concurrency takes a number of worker threads (1–999), 'auto' or 'off', not '${value}'`);
}

/** What a command that reads a project passes on to the engine besides the runner: the preset, the ignore patterns. */
function projectOptions(opts: Pick<CheckOptions, 'preset' | 'ignorePattern' | 'target'>): {
  preset?: string;
  ignorePatterns?: string[];
  targets?: string[];
} {
  return {
    ...(opts.preset ? { preset: opts.preset } : {}),
    ...(opts.target && opts.target.length > 0 ? { targets: opts.target } : {}),
    ...(opts.ignorePattern && opts.ignorePattern.length > 0 ? { ignorePatterns: opts.ignorePattern } : {}),
  };
}

/** How the per-file phase runs for a command: cache and threads. */
function runnerOptions(
  root: string,
  opts: Pick<CheckOptions, 'cache' | 'cacheLocation' | 'concurrency' | 'preset'>,
  io: CliIo,
): RunnerOptions {
  const out: RunnerOptions = { concurrency: concurrency(opts.concurrency), ownProcess: io.ownProcess === true };
  const script = workerScript();
  if (script) out.workerScript = script;
  const cache = cacheSettings(resolve(root), opts.cache, opts.cacheLocation, io.env);
  if (cache) Object.assign(out, cache, { warn: (message: string) => warnOnce(io, message) });
  return out;
}

/** The CLI runs that warned already (a cache that cannot be used is said once, not once per check of --fix). */
const warned = new WeakSet<CliIo>();

function warnOnce(io: CliIo, message: string): void {
  if (warned.has(io)) return;
  warned.add(io);
  io.stderr(`loopkit: warning: ${message}\n`);
}

const ms = (n: number) => `${n.toFixed(1).padStart(8)} ms`;

/** --timing: where the time of a run went, on stderr. */
function timingReport(result: LintResult, startup: number, report: number): string {
  const t = result.timing;
  const r = t.runner;
  const lines = [
    'loopkit timing',
    `  start-up   ${ms(startup)}  (process start to the command)`,
    `  config     ${ms(t.config)}`,
    `  discovery  ${ms(t.discovery)}`,
    `  read       ${ms(t.read)}`,
    `  files      ${ms(t.files)}  (${r.cached} from the cache, ${r.parsed} parsed on ${r.threads} thread${r.threads === 1 ? '' : 's'}; ${r.unread} not read: size and times unchanged)`,
    `    parse    ${ms(r.parseMs)}  CPU, summed over threads`,
    `    extract  ${ms(r.extractMs)}  CPU`,
    `    rules    ${ms(r.fileRulesMs)}  CPU (per-file rule parts)`,
    `  graph      ${ms(t.graph)}`,
    `  rules      ${ms(t.rules)}`,
    `  report     ${ms(report)}`,
    `  total      ${ms(performance.now())}  (since process start)`,
    `  memory     ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0).padStart(8)} MiB resident now, ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB at most`,
    '  slowest rules (project part, plus the CPU of the file part of the files parsed):',
    ...Object.entries(t.byRule)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([code, n]) => `    ${code.padEnd(36)} ${ms(n)}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** --verbose: where discovery looked, and what it left out and why. */
function discoveryLines(result: LintResult): string[] {
  const { project, layout } = result;
  const shown = (d: string) => displayPath(project.displayRoot, d);
  const some = (list: readonly string[]) => `${list.slice(0, 3).map(shown).join(', ')}${list.length > 3 ? `, … (${list.length})` : ''}`;
  const lines = [
    layout.everywhere ? `  skills: every SKILL.md below ${shown('')}` : `  skills_dir: ${project.skillsDirs.map(shown).join(', ')}`,
  ];
  // the folders not walked, by the pattern that ignored them
  const groups = new Map<string, string[]>();
  for (const { path, match } of layout.ignored) {
    const from = match.source === 'default' ? 'default' : match.source === 'gitignore' ? (match.file ?? '.gitignore') : match.source;
    const key = `${match.pattern} (${from})`;
    groups.set(key, [...(groups.get(key) ?? []), path]);
  }
  lines.push(`  ignored: ${layout.ignored.length} ${layout.ignored.length === 1 ? 'folder' : 'folders'}${groups.size > 0 ? ':' : ''}`);
  for (const [key, paths] of groups) lines.push(`    ${key}: ${some(paths)}`);
  if (layout.nested.length > 0) lines.push(`  inside other skills (part of them): ${some(layout.nested)}`);
  if (layout.fragments.length > 0) lines.push(`  pieces of a skill of their name (no frontmatter): ${some(layout.fragments)}`);
  if (layout.indexes.length > 0) lines.push(`  indexes of the skills below them (no frontmatter): ${some(layout.indexes)}`);
  if (layout.packageDocs.length > 0)
    lines.push(`  documents of the code packages they sit in (no frontmatter): ${some(layout.packageDocs)}`);
  if (layout.subprojects.length > 0) lines.push(`  projects of their own: ${some(layout.subprojects)}`);
  if (layout.unchecked.length > 0) lines.push(`  not checked (skill-outside-skills-dir): ${some(layout.unchecked.map((u) => u.dir))}`);
  return lines;
}

/** --verbose: the loaders the skills are written for, how many skills each, and why (docs/targets.md). */
function targetLines(result: LintResult): string[] {
  const groups = new Map<string, { skills: number; why: Set<string>; also: string }>();
  for (const s of result.project.skills) {
    const also = s.targets.alsoReadBy.join(', ');
    const key = `${s.targets.targets.join(', ')}\0${also}`;
    const g = groups.get(key) ?? { skills: 0, why: new Set<string>(), also };
    g.skills++;
    g.why.add(s.targets.why);
    groups.set(key, g);
  }
  const lines = ['  targets (the loaders the skills are written for):'];
  for (const [key, g] of [...groups].sort((a, b) => b[1].skills - a[1].skills || (a[0] < b[0] ? -1 : 1))) {
    const why = [...g.why];
    const shown = `${why.slice(0, 3).join('; ')}${why.length > 3 ? `; … (${why.length} places)` : ''}`;
    lines.push(
      `    ${key.split('\0')[0] || 'parts of other skills'}: ${g.skills} skill${g.skills === 1 ? '' : 's'} (${shown})${g.also ? `; also read by ${g.also}` : ''}`,
    );
  }
  return lines;
}

function verboseReport(result: LintResult): string {
  const lines: string[] = [];
  const { project } = result;
  lines.push(`  project: ${displayPath(project.displayRoot, '')}`);
  lines.push(`  config: ${project.configFile ? displayPath(project.displayRoot, project.configFile) : '(none, defaults)'}`);
  lines.push(`  presets: ${project.presets.join(', ')}`);
  lines.push(...targetLines(result));
  lines.push(...discoveryLines(result));
  lines.push(
    `  discovered: ${project.skills.length} skills, ${result.graph.states.length} states, ${result.graph.edges.length} transitions`,
  );
  lines.push('');
  for (const s of result.ruleStats) {
    const label = s.code.padStart(36);
    const total = s.errors + s.warnings + s.info;
    lines.push(`  ${label}  ${total === 0 ? '✓' : `${s.errors}E  ${s.warnings}W  ${s.info}I`}`);
  }
  lines.push('');
  lines.push(`  ${result.diagnostics.length} diagnostics total`);
  lines.push(`  ${result.errors} errors, ${result.warnings} warnings, ${result.info} info`);
  lines.push(`  ${result.verifications} verifications ran`);
  return `${lines.join('\n')}\n`;
}

/**
 * The project to check. A directory is the project root. Files (as a pre-commit hook passes them)
 * select the project they belong to: the nearest directory above them that holds `.loopkit.yaml`,
 * else the top of the git repository they are in; the whole project is checked, because its
 * contracts are cross-file.
 */
export function projectRoot(paths: readonly string[], cwd: string): string {
  if (paths.length === 0) return '.';
  if (paths.length === 1 && (!existsSync(paths[0]!) || statSync(paths[0]!).isDirectory())) return paths[0]!;
  const roots = new Set<string>();
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`path not found: ${p}`);
    const dir = projectOf(resolve(cwd, p), statSync(p).isDirectory());
    if (dir === null) {
      throw new UsageError(`no ${CONFIG_FILE} above ${p}, and it is not in a git repository; give the project directory instead`);
    }
    roots.add(dir);
  }
  if (roots.size > 1)
    throw new UsageError(`the paths belong to different projects: ${[...roots].map((r) => relative(cwd, r) || '.').join(', ')}`);
  return relative(cwd, [...roots][0]!) || '.';
}

async function runCheck(paths: string[], opts: CheckOptions, io: CliIo): Promise<number> {
  const startup = performance.now();
  const root = projectRoot(paths, process.cwd());
  if (opts.printConfig !== undefined) return printConfig(root, opts.printConfig, opts, io);
  // a bad --max-warnings is a usage error before any work
  maxWarnings(opts.maxWarnings);
  const rulesOnly = (opts.rule ?? [])
    .flatMap((r) => r.split(','))
    .map((r) => r.trim())
    .filter((r) => r !== '');
  let result: LintResult;
  try {
    const options = { root, only: rulesOnly, ...runnerOptions(root, opts, io), ...projectOptions(opts) };
    if (opts.fix || opts.fixDryRun) {
      if (opts.fix && opts.fixDryRun) throw new UsageError('--fix and --fix-dry-run exclude each other');
      const { namedFiles, runFix } = await import('./commands/fix.js');
      const fixed = await runFix(options, namedFiles(paths, root, process.cwd()), opts.fixDryRun === true, io, opts.quiet === true);
      if (fixed.result === undefined) return fixed.exitCode ?? 0;
      result = fixed.result;
    } else result = await lint(options);
  } catch (e) {
    return configFailure(e, root, io);
  }
  if (wantsBaseline(opts, result.project.root)) result = withBaseline(result, opts, io);
  const t0 = performance.now();
  if (result.presetNote && !opts.quiet) io.stderr(`loopkit: ${result.presetNote}\n`);
  if (result.layoutNote && !opts.quiet) io.stderr(`loopkit: ${result.layoutNote}\n`);
  if (opts.verbose) io.stderr(verboseReport(result));
  // info findings are suggestions: counted, and shown with --verbose
  const code = printReport(result, opts, io, { hideInfo: opts.verbose !== true });
  if (opts.timing) io.stderr(timingReport(result, startup, performance.now() - t0));
  return code;
}

/** `--print-config <file>`: what applies to a file of the project, as JSON on stdout. */
async function printConfig(root: string, file: string, opts: CheckOptions, io: CliIo): Promise<number> {
  const abs = resolve(process.cwd(), file);
  const rel = relative(resolve(root), abs).split(sep).join('/');
  if (rel === '' || rel === '..' || rel.startsWith('../') || isAbsolute(rel)) {
    throw new UsageError(`--print-config: ${file} is not a file of the project ${root}`);
  }
  try {
    io.stdout(`${JSON.stringify(await fileConfig(root, rel, { ...runnerOptions(root, opts, io), ...projectOptions(opts) }), null, 2)}\n`);
    return 0;
  } catch (e) {
    return configFailure(e, root, io);
  }
}

type GraphFormat = 'mermaid' | 'dot' | 'json' | 'svg' | 'html';
type GraphOptions = { format: GraphFormat; skill?: string } & Pick<
  CheckOptions,
  'cache' | 'cacheLocation' | 'concurrency' | 'preset' | 'ignorePattern' | 'target'
>;

/**
 * `loopkit graph`: the project is checked (so problem states can be marked), then drawn. SVG and
 * HTML load the WebAssembly Graphviz (reporters/picture.ts) on demand.
 */
async function runGraph(paths: string[], opts: GraphOptions, io: CliIo): Promise<number> {
  const root = projectRoot(paths, process.cwd());
  let result: LintResult;
  try {
    result = await lint({ root, ...runnerOptions(root, opts, io), ...projectOptions(opts) });
  } catch (e) {
    return configFailure(e, root, io);
  }
  const names = [...new Set(result.project.skills.map((s) => s.name))];
  if (opts.skill !== undefined && !names.includes(opts.skill)) {
    const guess = closest(opts.skill, names);
    throw new UsageError(`no skill named '${opts.skill}' in ${root}${guess ? `; did you mean '${guess}'?` : ''}`);
  }
  const view = graphView({
    graph: result.graph,
    config: result.project.config,
    diagnostics: machineDiagnostics(result),
    ...(opts.skill !== undefined ? { skill: opts.skill } : {}),
  });
  if (opts.format === 'svg' || opts.format === 'html') {
    const picture = await import('./reporters/picture.js');
    const shown = displayPath(result.project.displayRoot, '');
    const info = {
      project: shown === '.' ? basename(result.project.root) : shown,
      displayPath: (f: string) => displayPath(result.project.displayRoot, f),
      version: VERSION,
    };
    io.stdout(opts.format === 'svg' ? await picture.svgPicture(view) : await picture.htmlPicture(view, info));
    return 0;
  }
  io.stdout(opts.format === 'dot' ? dotGraph(view) : opts.format === 'json' ? jsonGraph(view, result.graph.terminals) : mermaidGraph(view));
  return 0;
}

function addCheckOptions(cmd: Command): Command {
  return addOutputOptions(cmd.argument('[paths...]', 'project root (the directory that holds .loopkit.yaml), or files inside it', []))
    .option('-v, --verbose', 'show info findings in the text report, and print per-rule diagnostic counts on stderr')
    .option(
      '-r, --rule <codes>',
      'run only these rules (comma-separated codes; repeatable)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--fix', 'repair the mechanical problems (section order, missing section headings, frontmatter syntax) in place')
    .option('--fix-dry-run', 'show what --fix would change as a diff, and change nothing (exit 1 when there is something to fix)')
    .option('--baseline <file>', 'report only problems that this baseline does not record (default: .loopkit-baseline.json when it exists)')
    .option('--no-baseline', 'ignore .loopkit-baseline.json')
    .option('--update-baseline', "record today's problems in the baseline (--baseline file, else .loopkit-baseline.json)")
    .option('--timing', 'print where the time went (start-up, discovery, parse, extract, graph, rules, report) on stderr')
    .option(
      '--print-config <file>',
      "print what applies to a file of the project as JSON (presets, the skill's loaders and why, every rule's severity there), and check nothing",
    );
}

/** The options of the per-file phase, for every command that reads a project. */
function addRunnerOptions(cmd: Command): Command {
  return cmd
    .option('--preset <name>', `check with this preset instead of the config's extends (${PRESET_NAMES.join(', ')})`)
    .option(
      '--ignore-pattern <pattern>',
      'do not look for skills in what the pattern matches (.gitignore syntax, relative to the project root; repeatable)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option(
      '--target <loaders>',
      `the loaders every skill is written for, instead of the configured or detected ones (${TARGETS.join(', ')}; comma-separated; repeatable)`,
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--cache', 'use the cache even when LOOPKIT_NO_CACHE is set (the cache is on by default)')
    .option('--no-cache', 'do not read or write the cache of per-file results (as LOOPKIT_NO_CACHE=1 does)')
    .option('--cache-location <path>', `cache file or directory (default: the user cache directory, ${CACHE_DIR_HINT})`)
    .option('--concurrency <n>', "worker threads for parsing: a number, 'auto' (by cores and project size) or 'off' (this thread)", 'auto');
}

/** Text broken into lines of at most 80 characters, at spaces (for help text). */
function wrapped(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= 80) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

/** Run the CLI; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = new Command('loopkit')
    .description('Prove your agent skill loops are correct: verify SKILL.md + LOOP.md contracts')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print help')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      outputError: (s, write) => write(s.startsWith('error:') ? `loopkit: ${s}` : s),
    })
    .showHelpAfterError('(run loopkit --help for usage)')
    .addHelpText(
      'after',
      '\nRun `loopkit check --help` for the options of check (the default command).\nExit codes: 0 no errors, 1 errors found, 2 usage, configuration or I/O failure.',
    );

  const check = addRunnerOptions(addCheckOptions(program.command('check', { isDefault: true })))
    .description('verify every skill of the project (the default command)')
    .addHelpText(
      'after',
      `\n${wrapped(
        'Which skills: without a .loopkit.yaml (or with the agent-skills preset and no skills_dir), every SKILL.md ' +
          'below the project root is a skill; with skills_dir, a SKILL.md found elsewhere is an error (skill-outside-skills-dir). ' +
          'Not looked in: what .gitignore, ignores: in .loopkit.yaml and --ignore-pattern ignore, and by default ' +
          `${DEFAULT_IGNORES.map((d) => d.pattern).join(' ')} (docs/discovery.md).`,
      )}`,
    )
    .exitOverride()
    .action(async (paths: string[], opts: CheckOptions) => {
      exitCode = await runCheck(paths, opts, io);
    });
  const graph = addRunnerOptions(program.command('graph'))
    .description('print the combined state machine of all skills as a diagram or a picture')
    .argument('[paths...]', 'project root (the directory that holds .loopkit.yaml), or files inside it', [])
    .addOption(
      new Option(
        '-f, --format <format>',
        "mermaid, dot, json, svg (a picture) or html (the picture with each state's transitions and problems)",
      )
        .choices(['mermaid', 'dot', 'json', 'svg', 'html'])
        .default('mermaid'),
    )
    .option('--skill <name>', 'only this skill and its neighbours: its transitions and those that hand work to it')
    .exitOverride()
    .action(async (paths: string[], opts: GraphOptions) => {
      exitCode = await runGraph(paths, opts, io);
    });
  const state = addOutputOptions(program.command('state'))
    .description("check a runtime state file (JSON or YAML) against a skill's Loop State Schema table")
    .argument('<file>', 'the state file')
    .option('-s, --skill <name>', 'the skill whose schema the file follows (default: the only skill with a schema table)')
    .option('-p, --project <dir>', 'the project (default: for a file under ., the nearest directory above it with a .loopkit.yaml; else .)')
    .exitOverride()
    .action(async (file: string, opts: StateOptions) => {
      const { runState } = await import('./commands/state.js');
      exitCode = await runState(file, opts, io);
    });
  const trace = addOutputOptions(program.command('trace'))
    .description('check a recorded run (JSON Lines of {"state", "skill"?, "agent"?, "iteration"?, "event"?}) against the contract')
    .argument('<log>', 'the trace, one JSON step per line')
    .option('-s, --skill <name>', "check only this skill's steps, against its own transitions")
    .option('-p, --project <dir>', 'the project (default: for a log under ., the nearest directory above it with a .loopkit.yaml; else .)')
    .option('--follow', 'follow the log as it grows (as tail -F): print each problem as its line is written, until Ctrl-C')
    .option('--until-end', 'with --follow: stop when the run reaches a terminal or halted state')
    .exitOverride()
    .action(async (file: string, opts: TraceOptions) => {
      const { runTrace } = await import('./commands/trace.js');
      exitCode = await runTrace(file, opts, io);
    });
  const more = registerCommands(
    program,
    io,
    (code) => {
      exitCode = code;
    },
    {
      lsp: async (options) => (await import('./lsp/server.js')).runLanguageServer(options),
      mcp: async (options, cliIo) => (await import('./mcp/run.js')).runMcp(options, cliIo),
    },
  );
  for (const cmd of [check, graph, state, trace, ...more]) {
    cmd.exitOverride();
    cmd.configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      outputError: (s, write) => write(s.startsWith('error:') ? `loopkit: ${s}` : s),
    });
  }

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    if (e instanceof ProjectError || e instanceof UsageError || e instanceof ConfigError) {
      io.stderr(`loopkit: error: ${e.message}\n`);
      return 2;
    }
    const err = e as Error;
    io.stderr(`loopkit: internal error: ${err.message}\n`);
    if (io.env.LOOPKIT_DEBUG) io.stderr(`${err.stack ?? ''}\n`);
    return 2;
  }
}
