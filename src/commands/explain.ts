/** `loopkit explain <code>`: a rule's (or runtime code's) documentation page (docs/rules/<code>.md of the package) in the terminal; the page and the codes are the API layer's (api/explain.ts). */
import { codeIndex, codeMarkdown } from '../api/explain.js';
import type { Rule } from '../engine/rule.js';
import { renderMarkdown } from '../reporters/terminal-markdown.js';

/** `ruleSet`: the project's rules, when a plugin's code may be asked for (the core rules otherwise). */
export function explain(name: string, color: boolean, ruleSet?: readonly Rule[]): string {
  const { markdown } = codeMarkdown(name, ruleSet);
  const codes = new Set(codeIndex(ruleSet).values());
  return renderMarkdown(markdown, {
    color,
    link: (target) => {
      const page = /^(?:\.\/)?([a-z0-9-]+)\.md(#.*)?$/u.exec(target);
      if (page && codes.has(page[1]!)) return `loopkit explain ${page[1]}`;
      if (target.startsWith('../')) return `docs/${target.slice(3)}`;
      return target;
    },
  });
}
