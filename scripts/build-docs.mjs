// Regenerates what is generated from the sources (bundled on the fly): the rule table in README.md
// and the Loaders section of each rule page from the rule metadata, and schema/loopkit.schema.json (the JSON Schema of .loopkit.yaml) from the
// zod schema of the configuration.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = await build({
  stdin: {
    contents:
      "export { withRulesTable } from './src/dev/rules-table.ts'; export { rules } from './src/rules/index.ts'; export { configJsonSchemaText } from './src/dev/json-schema.ts'; export { withLoadersSection } from './src/dev/loaders-section.ts';",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});
const { withRulesTable, rules, configJsonSchemaText, withLoadersSection } = await import(
  `data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`
);

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withRulesTable(before, rules);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? 'README.md rule table is up to date' : 'README.md rule table updated');

// each rule page's Loaders section, from the rule's loader table
let pages = 0;
for (const rule of rules) {
  const page = new URL(`../docs/rules/${rule.meta.code}.md`, import.meta.url);
  const text = readFileSync(page, 'utf8');
  const next = withLoadersSection(text, rule.meta);
  if (next !== text) {
    writeFileSync(page, next);
    pages++;
  }
}
console.log(pages === 0 ? 'rule pages: Loaders sections are up to date' : `rule pages: ${pages} Loaders sections updated`);

const schemaPath = new URL('../schema/loopkit.schema.json', import.meta.url);
const schemaBefore = existsSync(schemaPath) ? readFileSync(schemaPath, 'utf8') : '';
const schemaAfter = configJsonSchemaText(rules);
if (schemaAfter !== schemaBefore) {
  mkdirSync(new URL('../schema/', import.meta.url), { recursive: true });
  writeFileSync(schemaPath, schemaAfter);
}
console.log(schemaAfter === schemaBefore ? 'schema/loopkit.schema.json is up to date' : 'schema/loopkit.schema.json updated');
