/**
 * The commands beyond check and graph: `rules`, `explain`, `init`, and the live ones — `watch`,
 * `coverage`, `mcp`, and the editors' `lsp`. Each is wired here and loads its implementation only when it runs, so none of
 * them costs start-up time of the others.
 */
import { Option, type Command } from 'commander';
import type { CoverageOptions } from './coverage.js';
import { addOutputOptions, colorEnabled, type CliIo } from './output.js';
import type { WatchCliOptions } from './watch.js';

/** Where the cache is by default, for help texts. */
export const CACHE_DIR_HINT = '$XDG_CACHE_HOME/loopkit or ~/.cache/loopkit on Linux';

/**
 * The servers `loopkit lsp` and `loopkit mcp` start: front ends beside the command line, handed to it
 * by the program's entry (cli.ts), so that commands/ imports neither.
 */
export interface Servers {
  lsp(options: { cache: { flag: boolean | undefined; location: string | undefined; env: CliIo['env'] } }): Promise<number>;
  mcp(options: { project?: string }, io: CliIo): Promise<number>;
}

export function registerCommands(program: Command, io: CliIo, exit: (code: number) => void, servers: Servers): Command[] {
  const rules = program
    .command('rules')
    .description('list every rule: code, default severity, category, whether --fix repairs it, what it checks')
    .option('--json', 'print the list as JSON')
    .option('--target <loader>', 'only the rules that are on for a skill written for this loader, with their severity under agent-skills')
    .option('-p, --project <dir>', "the project whose plugins' rules are listed too (its .loopkit.yaml plugins:)", '.')
    .action(async (opts: { json?: boolean; target?: string; project: string }) => {
      const m = await import('./rules.js');
      const { ruleSet } = await (await import('../api/engine.js')).projectRules(opts.project);
      if (opts.target !== undefined)
        io.stdout(opts.json ? m.rulesJson(m.checkedTarget(opts.target), ruleSet) : m.rulesForTarget(m.checkedTarget(opts.target), ruleSet));
      else io.stdout(opts.json ? m.rulesJson(undefined, ruleSet) : m.rulesText(ruleSet));
      exit(0);
    });
  const explain = program
    .command('explain')
    .description("show a rule's documentation (docs/rules/<code>.md) in the terminal")
    .argument('<code>', 'a diagnostic code or alias')
    .option('--color', 'force coloured output')
    .option('--no-color', 'disable coloured output')
    .option('-p, --project <dir>', "the project whose plugins' rules are known too (its .loopkit.yaml plugins:)", '.')
    .action(async (code: string, opts: { color?: boolean; project: string }) => {
      const { explain } = await import('./explain.js');
      // a plugin's code is loaded only when one is asked for: the core pages need no project
      const ruleSet = code.includes('/') ? (await (await import('../api/engine.js')).projectRules(opts.project)).ruleSet : undefined;
      io.stdout(explain(code, colorEnabled(opts.color, io.env, io.isTTY), ruleSet));
      exit(0);
    });
  const init = program
    .command('init')
    .description('write a commented .loopkit.yaml (and an example skill in a project without skills); never overwrites')
    .argument('[dir]', 'the project directory (created when missing)', '.')
    .option('--preset <name>', 'loop-language or agent-skills (default: the one that fits the project)')
    .option('-y, --yes', 'do not ask before writing (for scripts)')
    .action(async (dir: string, opts: { preset?: string; yes?: boolean }) => {
      const { runInit } = await import('./init.js');
      exit(await runInit(dir, opts, io));
    });
  const watch = addOutputOptions(program.command('watch'))
    .description("follow an agent's state file as it rewrites it: each version against the schema, each move against the contract")
    .argument('[state-file]', 'the state file (JSON or YAML); it may not exist yet')
    .option('-s, --skill <name>', 'the skill whose schema the file follows (default: the only skill with a schema table)')
    .option('-p, --project <dir>', 'the project (default: for a file under ., the nearest directory above it with a .loopkit.yaml; else .)')
    .option(
      '--record <file>',
      'write every version as a step of a trace (JSON Lines) to this file, to replay with trace or measure with coverage',
    )
    .option('--until-end', 'stop when the run reaches a terminal or halted state (default: run until Ctrl-C)')
    .option('--settle <ms>', 'how long a file that does not parse must stay unchanged before it is reported', '2000')
    .option('--replay <session>', 'check a recorded session (a directory of the versions of a state file) instead, as one report')
    .action(async (file: string | undefined, opts: WatchCliOptions) => {
      const { runWatch } = await import('./watch.js');
      exit(await runWatch(file, opts, io));
    });
  const coverage = program
    .command('coverage')
    .description('contract coverage of recorded runs: which transitions, handoffs and halt bounds they exercised')
    .argument('<runs...>', 'traces (JSON Lines, as trace reads them) or recorded sessions (directories of state-file versions)')
    .addOption(
      new Option('-f, --format <format>', 'text, json, or the graph picture (svg, html) with exercised transitions marked').choices([
        'text',
        'json',
        'svg',
        'html',
      ]),
    )
    .option('--json', 'same as --format json')
    .option('--min <percent>', 'exit 1 when transitions, handoffs or halt bounds are covered less than this')
    .option('-s, --skill <name>', "the skill whose schema the sessions' state files follow (default: the only skill with a schema table)")
    .option('-p, --project <dir>', 'the project (default: the nearest directory above the runs with a .loopkit.yaml; else .)')
    .option('-o, --output-file <path>', 'write the report to this file instead of stdout')
    .option('-q, --quiet', 'no notes on stderr about lines that could not be read')
    .action(async (runs: string[], opts: CoverageOptions) => {
      const { runCoverage } = await import('./coverage.js');
      exit(await runCoverage(runs, opts, io));
    });
  const mcp = program
    .command('mcp')
    .description('serve the contracts to an agent over the Model Context Protocol (stdio): check, next, step, state, trace, explain')
    .option('-p, --project <dir>', 'the project directory', '.')
    .action(async (opts: { project?: string }) => {
      exit(await servers.mcp(opts, io));
    });
  const lsp = program
    .command('lsp')
    .description('run the language server for editors (Language Server Protocol over stdin and stdout)')
    .option('--stdio', 'talk over stdin and stdout (the only transport, the default)')
    .option('--cache', 'use the cache even when LOOPKIT_NO_CACHE is set (on by default, as for check: a restart reads only what changed)')
    .option('--no-cache', 'do not read or write the cache of per-file results')
    .option('--cache-location <path>', `cache file or directory (default: the user cache directory, ${CACHE_DIR_HINT})`)
    // editors' clients add flags of their own (--clientProcessId=…)
    .allowUnknownOption()
    .action(async (opts: { cache?: boolean; cacheLocation?: string }) => {
      exit(await servers.lsp({ cache: { flag: opts.cache, location: opts.cacheLocation, env: io.env } }));
    });
  return [rules, explain, init, watch, coverage, mcp, lsp];
}
