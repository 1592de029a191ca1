/** The codes loopkit knows and their documentation pages: what `explain`, the language server and the MCP server show. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../engine/errors.js';
import { ruleDocsDirectory } from '../reporters/docs.js';
import { runtimeCodes } from '../runtime/codes.js';
import { closest } from '../util/closest.js';
import type { Rule, RuleMeta } from '../engine/rule.js';
import { ruleIndex } from './engine.js';

/** Every code `explain` knows, by code and alias: the rules', and the runtime codes of state, trace and watch. */
export function codeIndex(ruleSet?: readonly Rule[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const [name, rule] of ruleIndex(ruleSet)) index.set(name, rule.meta.code);
  for (const m of runtimeCodes) index.set(m.code, m.code);
  return index;
}

/** The code a name means (a code or an alias), or a UsageError with a suggestion. */
export function resolveCode(name: string, ruleSet?: readonly Rule[]): string {
  const index = codeIndex(ruleSet);
  const code = index.get(name) ?? index.get(name.toLowerCase());
  if (code) return code;
  const names = [...index.keys()];
  const guess = closest(name, names);
  if (guess) throw new UsageError(`unknown rule '${name}'; did you mean '${guess}'?`);
  const word = name.toLowerCase();
  const containing = [...new Set(index.values())].filter((c) => c.includes(word));
  if (containing.length > 0 && word.length >= 3) {
    throw new UsageError(`unknown rule '${name}'; rules whose code contains '${word}': ${containing.join(', ')}`);
  }
  throw new UsageError(`unknown rule '${name}' (loopkit rules lists every code)`);
}

/** The documentation page of a code (or alias), as markdown. */
export function codeMarkdown(name: string, ruleSet?: readonly Rule[]): { code: string; markdown: string } {
  const code = resolveCode(name, ruleSet);
  const plugin = ruleSet?.find((r) => r.meta.code === code && r.meta.plugin !== undefined);
  if (plugin) return { code, markdown: pluginRuleMarkdown(plugin.meta) };
  const dir = ruleDocsDirectory();
  try {
    if (dir === null) throw new Error('no docs/rules directory');
    return { code, markdown: readFileSync(join(dir, `${code}.md`), 'utf8') };
  } catch (e) {
    throw new UsageError(`the documentation of ${code} is missing from this installation of loopkit (${(e as Error).message})`);
  }
}

/** The page of a plugin's rule: what its meta says, and the address of its own documentation. */
function pluginRuleMarkdown(m: RuleMeta): string {
  const lines = [
    `# ${m.code}`,
    '',
    m.description,
    '',
    `- plugin: ${m.plugin}`,
    `- default severity: ${m.defaultSeverity}`,
    `- certainty: ${m.certainty}`,
    `- fixable with --fix: ${m.fixable ? 'yes' : 'no'}`,
    '',
    '## Messages',
    '',
    ...Object.values(m.messages).map((t) => `- ${t.message}${t.help ? ` (${t.help})` : ''}`),
    '',
    m.docs !== undefined ? `Documentation: <${m.docs}>` : `The plugin ${m.plugin} names no documentation page for this rule.`,
    '',
  ];
  return lines.join('\n');
}
