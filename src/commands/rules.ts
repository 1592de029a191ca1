/**
 * `loopkit rules`: every rule with its default severity, its severity under the agent-skills preset,
 * its certainty, category, whether --fix repairs it, and what it checks.
 */
import { PRESET_NAMES } from '../config/presets.js';
import type { RuleMeta } from '../engine/rule.js';
import { presetSeverity } from '../engine/severity.js';
import { ruleDocsPath } from '../reporters/docs.js';
import { rules } from '../rules/index.js';

export function ruleList(): RuleMeta[] {
  return rules.map((r) => r.meta);
}

/** The severity of a rule under each preset chosen by the user (no `rules:` of their own). */
function presetSeverities(m: RuleMeta): Record<string, string> {
  return Object.fromEntries(PRESET_NAMES.map((p) => [p, presetSeverity(m, { presets: [p], auto: false })]));
}

export function rulesJson(): string {
  const list = ruleList().map((m) => ({
    code: m.code,
    aliases: [...(m.aliases ?? [])],
    defaultSeverity: m.defaultSeverity,
    presetSeverity: presetSeverities(m),
    certainty: m.certainty,
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
  const header = ['code', 'default', 'agent-skills', 'certainty', 'category', 'fix', 'checks'];
  const rows = list.map((m) => [
    m.code + (m.aliases?.length ? ` (${m.aliases.join(', ')})` : ''),
    m.defaultSeverity,
    presetSeverities(m)['agent-skills']!,
    m.certainty,
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
  const heuristic = list.filter((m) => m.certainty === 'heuristic').length;
  return (
    `${[line(header), ...rows.map(line)].join('\n')}\n\n` +
    `${list.length} rules, ${fixable} fixable with --fix, ${heuristic} heuristic. ` +
    'default: the severity of the loop-language preset (the reference); a heuristic is never an error under agent-skills, ' +
    'nor in a project without a .loopkit.yaml. Details: loopkit explain <code>\n'
  );
}
