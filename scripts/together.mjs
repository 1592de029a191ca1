// node scripts/together.mjs <npm script> …: runs the package's npm scripts at once (the checks of
// `npm test` that need nothing of each other: the types and the lint use a core each) and exits with
// the first failure's code, after every one has ended and printed its output.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const npm = process.env.npm_execpath;
const runs = names.map(
  (name) =>
    new Promise((done) => {
      const child = npm
        ? spawn(process.execPath, [npm, 'run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
      const out = [];
      child.stdout.on('data', (b) => out.push(b));
      child.stderr.on('data', (b) => out.push(b));
      child.on('error', (e) => done({ name, code: 1, text: `${e.message}\n` }));
      child.on('close', (code) => done({ name, code: code ?? 1, text: Buffer.concat(out).toString() }));
    }),
);
let failed = 0;
for (const r of await Promise.all(runs)) {
  // each one's output whole, in the order named, so the logs never interleave
  process.stdout.write(r.text);
  if (r.code !== 0) {
    process.stderr.write(`npm run ${r.name}: exit ${r.code}\n`);
    failed ||= r.code;
  }
}
process.exitCode = failed;
