#!/usr/bin/env node
// The loopkit command: the bundled CLI in dist/ (built by `npm run build`, which `npm ci` runs).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // the most common probe, answered without loading the command line at all
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('../dist/cli.js');
  process.exitCode = await main(argv, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    ownProcess: true,
  });
}
