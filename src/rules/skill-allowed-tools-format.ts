import { defineRule } from '../engine/rule.js';
import { inlineScalar } from './lib/frontmatter-text.js';
import { entryPlace, textField } from './lib/frontmatter-fields.js';

/** Split at commas outside parentheses/brackets (`Bash(git add:*, git diff)` stays one tool). */
function commaParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    else if ((ch === ')' || ch === ']') && depth > 0) depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  parts.push(cur.trim());
  return parts;
}

export default defineRule({
  meta: {
    code: 'skill-allowed-tools-format',
    defaultSeverity: 'warning',
    certainty: 'definite',
    category: 'frontmatter',
    description: 'Require allowed-tools to be a space-separated string (or a YAML list), not comma-separated',
    scope: 'skill',
    reference: 'improved',
    fixable: true,
    messages: {
      commas: {
        message: 'allowed-tools should be space-separated, not comma-separated',
        help: 'Write `allowed-tools: {spaced}` (or a YAML list).',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const f = textField(skill, 'allowed-tools', true);
      const parts = f ? commaParts(f.text) : [];
      if (!f || parts.length < 2) continue;
      const spaced = parts.filter((t) => t !== '').join(' ');
      report({ messageId: 'commas', data: { spaced }, at: entryPlace(skill, f.entry), skill: skill.name });
    }
  },
  // --fix: the commas become spaces in a one-line value (plain or quoted, as written)
  fix: {
    kinds: ['skill'],
    fix({ file, facts }) {
      const fm = facts.skill?.frontmatter;
      const entry = fm && fm.endLine !== null && !fm.error ? fm.entries.find((e) => e.key === 'allowed-tools') : undefined;
      if (!entry || typeof entry.value !== 'string') return [];
      const parts = commaParts(entry.value.trim());
      if (parts.length < 2) return [];
      const value = inlineScalar(file, entry.line, entry.column);
      if (!value || value.content.trim() !== entry.value.trim()) return [];
      const lead = /^\s*/u.exec(value.content)![0];
      const trail = /\s*$/u.exec(value.content)![0];
      return [{ start: value.start, end: value.end, text: lead + parts.filter((t) => t !== '').join(' ') + trail }];
    },
  },
});
