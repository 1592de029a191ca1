import { defineRule } from '../engine/rule.js';
import { descriptionField, entryPlace } from './lib/frontmatter-fields.js';
import { DOCS } from './lib/loaders.js';

/**
 * Text of the form of a tag: `<tag>`, `</tag>`, `<tag attr="v" flag>`, `<br/>`, or an HTML comment.
 * Not arrows (`a <- b -> c`), comparisons (`x < y > z`, `a<b && c>d`) or autolinks (`<https://…>`).
 */
const TAG = /<!--[\s\S]*?-->|<(\/?)([A-Za-z][\w.:-]*)((?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=`]+))?)*)\s*(\/?)>/gu;

/** HTML elements that are markup wherever they stand (a word such as `input` or `title` may be a placeholder: not listed). */
const HTML = new Set(
  'a b i p br hr div span img em strong ul ol li table tr td th script style iframe svg details summary kbd pre blockquote h1 h2 h3 h4 h5 h6 html head body meta slot video audio canvas form button sup sub'.split(
    ' ',
  ),
);

/** The ranges of the `code spans` of a text. */
function codeSpans(text: string): [number, number][] {
  return [...text.matchAll(/(`+)[^`]*?\1/gu)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * The first tag of the text that is markup: a comment, a closing tag, a self-closing tag, a tag
 * with an `attr=value`, an HTML element, a name opened and closed in the text, or a component
 * or element name in camel or Pascal case (`<Widget>`, `<validationRule>`). Not markup: a tag in a
 * code span, a generic type (`Span<T>`, `Map<K, V>`: a word right before the `<`), and a
 * placeholder (`<query>`, `<skill-name>`, `<file path>`, `<FILE>`: a lone tag of lower-case or
 * upper-case words).
 */
export function markupTag(text: string): string | undefined {
  const spans = codeSpans(text);
  const inCode = (i: number) => spans.some(([a, b]) => i >= a && i < b);
  for (const m of text.matchAll(TAG)) {
    const at = m.index;
    if (inCode(at)) continue;
    const [whole, closing, name, attrs, selfClosing] = m;
    if (whole.startsWith('<!--')) return whole;
    if (at > 0 && /[\w$]/u.test(text[at - 1]!)) continue;
    if (closing === '/' || selfClosing === '/' || /=/u.test(attrs ?? '')) return whole;
    const n = name!;
    if (HTML.has(n.toLowerCase())) return whole;
    if (text.includes(`</${n}>`)) return whole;
    if (/[a-z]/u.test(n) && /[A-Z]/u.test(n)) return whole;
  }
  return undefined;
}

export default defineRule({
  meta: {
    code: 'skill-description-xml-tag',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: {
      'claude-api': { does: 'rejects', source: DOCS.claudeApi, note: 'description cannot contain XML tags' },
    },
    category: 'frontmatter',
    reads: ['frontmatter'],
    local: true,
    description: 'Disallow XML/HTML tags in the frontmatter description',
    scope: 'skill',
    reference: 'improved',
    messages: {
      tag: {
        message: 'description contains XML tags',
        help: 'Found `{tag}`. Agents place descriptions inside XML-structured prompts; describe it in words instead.',
      },
      angle: {
        message: 'description contains angle brackets, which the skill upload of the Claude API and claude.ai rejects',
        help: 'Found `{text}` (a placeholder, a generic type or code: no markup, but the upload checks every `<` and `>`). Write it without angle brackets: `QUERY`, `Span of T`.',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const d = descriptionField(skill);
      if (!d) continue;
      const at = entryPlace(skill, d.entry);
      const tag = markupTag(d.text);
      if (tag !== undefined) {
        report({ messageId: 'tag', data: { tag }, at, skill: skill.name });
        continue;
      }
      // text of the form of a tag that is no markup fails only the upload path, which rejects every < and >:
      // a finding where the skill is written for it
      const shaped = /<[^<>\n]{1,60}>/u.exec(d.text)?.[0];
      if (shaped !== undefined && skill.targets.targets.includes('claude-api'))
        report({ messageId: 'angle', data: { text: shaped }, at, skill: skill.name });
    }
  },
});
