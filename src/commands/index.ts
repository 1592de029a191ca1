/**
 * The commands beyond check and graph: `rules`, `explain`, `init`, `lsp`. Each is wired here and loads its
 * implementation only when it runs, so none of them costs start-up time of the others.
 */
import { type Command } from 'commander';
import { colorEnabled, type CliIo } from './output.js';

export function registerCommands(program: Command, io: CliIo, exit: (code: number) => void): Command[] {
  const rules = program
    .command('rules')
    .description('list every rule: code, default severity, category, whether --fix repairs it, what it checks')
    .option('--json', 'print the list as JSON')
    .action(async (opts: { json?: boolean }) => {
      const m = await import('./rules.js');
      io.stdout(opts.json ? m.rulesJson() : m.rulesText());
      exit(0);
    });
  const explain = program
    .command('explain')
    .description("show a rule's documentation (docs/rules/<code>.md) in the terminal")
    .argument('<code>', 'a diagnostic code or alias')
    .option('--color', 'force coloured output')
    .option('--no-color', 'disable coloured output')
    .action(async (code: string, opts: { color?: boolean }) => {
      const { explain } = await import('./explain.js');
      io.stdout(explain(code, colorEnabled(opts.color, io.env, io.isTTY)));
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
  const lsp = program
    .command('lsp')
    .description('run the language server for editors (Language Server Protocol over stdin and stdout)')
    .option('--stdio', 'talk over stdin and stdout (the only transport, the default)')
    .option(
      '--cache',
      'keep per-file results and reuse them while a file is unchanged (as check --cache): a restart reads only what changed',
    )
    .option('--cache-location <path>', 'cache file or directory (default: node_modules/.cache/loopkit, else the user cache directory)')
    // editors' clients add flags of their own (--clientProcessId=…)
    .allowUnknownOption()
    .action(async (opts: { cache?: boolean; cacheLocation?: string }) => {
      const { runLanguageServer } = await import('../lsp/server.js');
      exit(await runLanguageServer(opts.cache ? { cache: { location: opts.cacheLocation, env: io.env } } : {}));
    });
  return [rules, explain, init, lsp];
}
