import { defineRule } from '../engine/rule.js';
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
    category: 'frontmatter',
    description: 'Require allowed-tools to be a space-separated string (or a YAML list), not comma-separated',
    scope: 'skill',
    reference: 'improved',
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
});
