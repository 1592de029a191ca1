// Regenerates docs/graph.svg, the picture of the dogfood project's state machine shown in README.md,
// with the built command line (`npm run build` first; `npm test` checks that the file is current).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = new URL('../docs/graph.svg', import.meta.url);
const r = spawnSync(process.execPath, ['bin/loopkit.js', 'graph', '.', '--format', 'svg'], { cwd: root, encoding: 'utf8' });
if (r.status !== 0) {
  process.stderr.write(r.stderr);
  process.exit(r.status ?? 1);
}
let before = '';
try {
  before = readFileSync(out, 'utf8');
} catch {
  // first run
}
if (before !== r.stdout) writeFileSync(out, r.stdout);
console.log(before === r.stdout ? 'docs/graph.svg is up to date' : 'docs/graph.svg updated');
