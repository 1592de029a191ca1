import { defineRule } from '../engine/rule.js';
import { descriptionField, entryPlace } from './lib/frontmatter-fields.js';

/**
 * A real markup tag: `<tag>`, `</tag>`, `<tag attr="v" flag>`, `<br/>`, or an HTML comment.
 * Not arrows (`a <- b -> c`), comparisons (`x < y > z`, `a<b && c>d`) or autolinks (`<https://…>`).
 */
const TAG = /<!--[\s\S]*?-->|<\/?[A-Za-z][\w.:-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=`]+))?)*\s*\/?>/u;

export default defineRule({
  meta: {
    code: 'skill-description-xml-tag',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'frontmatter',
    description: 'Disallow XML/HTML tags in the frontmatter description',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tag: {
        message: 'description contains XML tags',
        help: 'Found `{tag}`. Agents place descriptions inside XML-structured prompts; describe it in words instead.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const d = descriptionField(skill);
      const tag = d ? TAG.exec(d.text)?.[0] : undefined;
      if (!d || tag === undefined) continue;
      report({ messageId: 'tag', data: { tag }, at: entryPlace(skill, d.entry), skill: skill.name });
    }
  },
});
