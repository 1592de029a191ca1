/** `loopkit rules`: every rule with its default severity, category, whether --fix repairs it, and what it checks. */
import type { RuleMeta } from '../engine/rule.js';
import { ruleDocsPath } from '../reporters/docs.js';
import { rules } from '../rules/index.js';

export function ruleList(): RuleMeta[] {
  return rules.map((r) => r.meta);
}

export function rulesJson(): string {
  const list = ruleList().map((m) => ({
    code: m.code,
    aliases: [...(m.aliases ?? [])],
    defaultSeverity: m.defaultSeverity,
    category: m.category,
    fixable: m.fixable === true,
    description: m.description,
    reference: m.reference,
    docs: ruleDocsPath(m.code),
  }));
  return `${JSON.stringify(list, null, 2)}\n`;
}

export function rulesText(): string {
  const list = ruleList();
  const header = ['code', 'default', 'category', 'fix', 'checks'];
  const rows = list.map((m) => [
    m.code + (m.aliases?.length ? ` (${m.aliases.join(', ')})` : ''),
    m.defaultSeverity,
    m.category,
    m.fixable ? 'fix' : '',
    m.description,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const fixable = list.filter((m) => m.fixable).length;
  return `${[line(header), ...rows.map(line)].join('\n')}\n\n${list.length} rules, ${fixable} fixable with --fix. Details: loopkit explain <code>\n`;
}
