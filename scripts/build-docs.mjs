// Regenerates the rule table in README.md from the rule metadata (the sources, bundled on the fly).
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = await build({
  stdin: {
    contents: "export { withRulesTable } from './src/dev/rules-table.ts'; export { rules } from './src/rules/index.ts';",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});
const { withRulesTable, rules } = await import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withRulesTable(before, rules);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? 'README.md rule table is up to date' : 'README.md rule table updated');
