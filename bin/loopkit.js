#!/usr/bin/env node
// The loopkit command: the bundled CLI in dist/ (built by `npm run build`, which `npm ci` runs).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // the most common probe, answered without loading the command line at all
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('../dist/cli.js');
  /** One question on the terminal (loopkit init asks before it writes). */
  const ask = async (question) => {
    const { createInterface } = await import('node:readline/promises');
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  };
  process.exitCode = await main(argv, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    ownProcess: true,
    ...(process.stdin.isTTY && process.stdout.isTTY ? { ask } : {}),
  });
}
