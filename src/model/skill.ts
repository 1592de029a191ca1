/** Derived facts of a skill that depend on the configuration (computed in the project phase). */
import { posix } from 'node:path';
import type { DeclaredState, LocalLink, SkillFacts } from './types.js';

/**
 * The project-relative path a local link points at: relative to the file that holds it, or to the
 * skill directory for a `{baseDir}/…` link; the file itself for a link to one of its anchors.
 * May start with `../` (outside the project).
 */
export function localLinkPath(link: LocalLink, file: string, skillDir: string): string {
  if (link.path === '') return file;
  const base = link.fromSkillDir ? skillDir : posix.dirname(file);
  return posix.normalize(posix.join(base, link.path.replace(/\\/gu, '/')));
}
import { sectionKey } from '../util/text.js';

/**
 * The states declared in the state-model sections: backticked tokens (without whitespace) inside
 * the region of a top-level heading (any depth) named like one of `aliases`, up to the next
 * heading of the same or a higher level. In document order, each name once.
 */
export function declaredStates(facts: SkillFacts, aliases: readonly string[]): DeclaredState[] {
  const keys = new Set(aliases.map(sectionKey));
  const { headings, codeSpans } = facts;
  const seen = new Set<string>();
  const out: DeclaredState[] = [];
  // code spans are in document order: first[k] is the index of the first span in heading k's region
  const first: number[] = [];
  let at = 0;
  for (let k = 0; k <= headings.length; k++) {
    while (at < codeSpans.length && codeSpans[at]!.heading < k) at++;
    first.push(at);
  }
  let covered = -1; // headings before this index were already read as part of an enclosing section
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i]!;
    if (!keys.has(h.key) || i < covered) continue;
    let end = i + 1;
    while (end < headings.length && headings[end]!.depth > h.depth) end++;
    covered = end;
    for (let k = first[i]!; k < first[end]!; k++) {
      const c = codeSpans[k]!;
      if ((c.heading === i && c.inHeading) || seen.has(c.name)) continue;
      seen.add(c.name);
      out.push({ name: c.name, line: c.line, column: c.column });
    }
  }
  return out;
}
