// Regenerates the rule table in README.md from the rule metadata (run after `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { withRulesTable } from '../dist/dev/rules-table.js';
import { rules } from '../dist/rules/index.js';

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withRulesTable(before, rules);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? 'README.md rule table is up to date' : 'README.md rule table updated');
