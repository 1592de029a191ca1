import { defineRule } from '../engine/rule.js';
import { isRunnableScript } from './lib/script.js';

/**
 * Visible help: a `--help` or `-h` option token (not `re-hash`, not curl's `-H`), a `usage:` text
 * or `usage()` function, or a command-line library that generates --help by itself.
 */
const HELP: readonly RegExp[] = [
  /(?<![\w-])--help(?![\w-])/u,
  /(?<![\w-])-h(?![\w-])/u,
  /\busage\s*(?::|\(\))/iu,
  /^\s*(?:import|from)\s+(?:argparse|optparse|click|typer|docopt)\b/mu,
  /\brequire\s*\(?\s*["']optparse["']|\bOptionParser\.new\b|<\s*Thor\b/u,
  /["'](?:npm:|jsr:)?(?:commander|yargs|meow|cac|citty|clipanion)(?:@[^"'/]*)?(?:\/[^"']*)?["']/u,
];

export default defineRule({
  meta: {
    code: 'skill-script-no-help',
    defaultSeverity: 'info',
    certainty: 'heuristic',
    category: 'scripts',
    reads: [],
    description: 'Require --help or usage handling in the scripts of a skill',
    scope: 'skill',
    reference: 'improved',
    messages: {
      noHelp: {
        message: "Script '{file}' has no visible --help or usage documentation. Agents learn your script interface from --help output",
      },
    },
  },
  file: {
    kinds: ['script'],
    check({ file: script, report }) {
      if (!isRunnableScript(script) || HELP.some((re) => re.test(script.text))) return;
      const name = script.path.split('/').pop()!;
      report({ messageId: 'noHelp', data: { file: name }, at: { file: script.path, line: 1, column: 1 } });
    },
  },
});
