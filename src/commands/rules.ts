/**
 * `loopkit rules`: every rule with its default severity, its severity under the agent-skills preset,
 * its certainty, category, whether --fix repairs it, and what it checks.
 */
import { PRESET_NAMES } from '../config/presets.js';
import { UsageError } from '../engine/errors.js';
import type { Rule, RuleMeta } from '../engine/rule.js';
import { presetSeverity, targetSeverity, type Setting } from '../engine/severity.js';
import { isTarget, LOADER_INFO, LOADERS, TARGET_INFO, TARGETS, type Target } from '../model/targets.js';
import { closest } from '../util/closest.js';
import { ruleDocsPath } from '../reporters/docs.js';
import { coreRules } from '../api/core-rules.js';

/** The rules' metadata: the core rules, or the rules of a project (the core rules and its plugins'). */
export function ruleList(rules: readonly Rule[] = coreRules): RuleMeta[] {
  return rules.map((r) => r.meta);
}

/** The severity of a rule under each preset chosen by the user (no `rules:` of their own). */
function presetSeverities(m: RuleMeta): Record<string, string> {
  return Object.fromEntries(PRESET_NAMES.map((p) => [p, presetSeverity(m, { presets: [p], auto: false })]));
}

/** A `--target` value, checked (a UsageError with a suggestion when it is no target). */
export function checkedTarget(name: string): Target {
  if (isTarget(name)) return name;
  const guess = closest(name, TARGETS);
  throw new UsageError(`unknown target '${name}'${guess ? `; did you mean '${guess}'?` : ''} (targets: ${TARGETS.join(', ')})`);
}

/** A rule's severity under agent-skills for a skill written for this loader alone (a named target). */
function severityFor(m: RuleMeta, target: Target): Setting {
  const preset = presetSeverity(m, { presets: ['agent-skills'], auto: false });
  return targetSeverity(m, preset, { targets: [target], alsoReadBy: [], why: '--target', named: true }).severity;
}

/** The loader table as JSON: per target, what the loader does and the page that says so (`every`: whatever loads the skill). */
function loadersJson(m: RuleMeta): unknown {
  const table = m.loaders;
  if (table === undefined || table === 'every') return table ?? null;
  return Object.fromEntries(
    LOADERS.filter((t) => table[t] !== undefined).map((t) => [
      t,
      { does: table[t]!.does, source: table[t]!.source ?? LOADER_INFO[t].docs, ...(table[t]!.note ? { note: table[t]!.note } : {}) },
    ]),
  );
}

export function rulesJson(target?: Target, rules: readonly Rule[] = coreRules): string {
  const metas = target === undefined ? ruleList(rules) : ruleList(rules).filter((m) => severityFor(m, target) !== 'off');
  const list = metas.map((m) => ({
    code: m.code,
    aliases: [...(m.aliases ?? [])],
    defaultSeverity: m.defaultSeverity,
    presetSeverity: presetSeverities(m),
    certainty: m.certainty,
    category: m.category,
    fixable: m.fixable === true,
    description: m.description,
    reference: m.reference,
    loaders: loadersJson(m),
    ...(target !== undefined ? { targetSeverity: { [target]: severityFor(m, target) } } : {}),
    docs: m.docs ?? (m.plugin === undefined ? ruleDocsPath(m.code) : null),
    ...(m.plugin !== undefined ? { plugin: m.plugin } : {}),
  }));
  return `${JSON.stringify(list, null, 2)}\n`;
}

export function rulesText(rules: readonly Rule[] = coreRules): string {
  const list = ruleList(rules);
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
  const plugins = list.filter((m) => m.plugin !== undefined).length;
  return (
    `${[line(header), ...rows.map(line)].join('\n')}\n\n` +
    `${list.length} rules${plugins > 0 ? ` (${plugins} from plugins)` : ''}, ${fixable} fixable with --fix, ${heuristic} heuristic. ` +
    'default: the severity of the loop-language preset (the reference); a heuristic is never an error under agent-skills, ' +
    'nor in a project without a .loopkit.yaml. Details: loopkit explain <code>\n'
  );
}

/** `loopkit rules --target X`: the rules on for a skill written for X under agent-skills, with their severity there. */
export function rulesForTarget(target: Target, rules: readonly Rule[] = coreRules): string {
  const on = ruleList(rules)
    .map((m) => ({ m, severity: severityFor(m, target) }))
    .filter((r) => r.severity !== 'off');
  const header = ['code', target, 'certainty', 'category', 'checks'];
  const rows = on.map(({ m, severity }) => [m.code, severity, m.certainty, m.category, m.description]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const off = rules.length - on.length;
  return (
    `${[line(header), ...rows.map(line)].join('\n')}\n\n` +
    `${on.length} rules on for a skill written for ${TARGET_INFO[target].label} (${target}) under agent-skills; ${off} off there ` +
    '(the loader accepts what they report, or they are off under agent-skills). Details: loopkit explain <code>, docs/targets.md\n'
  );
}
