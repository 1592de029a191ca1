/** Derived facts of a skill that depend on the configuration (computed in the project phase). */
import { posix } from 'node:path';
import { inSkillDir, isInsideDir } from './skill-dir.js';
import type { DeclaredState, DirEntry, SkillFacts } from './types.js';

/**
 * The places a link's path can mean, first the one CommonMark reads (relative to the file that
 * holds it, or to the skill directory for a `{baseDir}/…` link), then — for a link in a file below
 * the skill directory — relative to the skill directory, as the Agent Skills specification writes
 * paths (`references/b.md` inside `references/a.md`) and as an agent that knows the skill's base
 * directory reads them. Project-relative, normalised; may start with `../`.
 */
export function linkPlaces(path: string, fromSkillDir: boolean, file: string, skillDir: string): string[] {
  if (path === '') return [file];
  const rel = path.replace(/\\/gu, '/');
  const parent = posix.dirname(file);
  // the folder that holds the file, '' at the root (as a root skill's folder is written)
  const dir = parent === '.' ? '' : parent;
  const first = posix.normalize(posix.join(fromSkillDir ? skillDir : dir, rel));
  if (fromSkillDir || dir === skillDir || !isInsideDir(dir, skillDir) || rel.startsWith('../') || rel.startsWith('./')) return [first];
  return [first, posix.normalize(posix.join(skillDir, rel))];
}

/**
 * The place of a path SKILL.md names in prose, when it names one of the skill's own files: it
 * leads into a folder of the skill directory (`references/forms.md` beside a `references/` folder),
 * or it is a file name that one of the skill directory's files has, in any case (`FORMS.md` beside
 * `forms.md`). Null otherwise (`docs/plan.md` of the project the skill works on, `report.md` the
 * agent is to write). `entries` are the skill directory's; names compare without case.
 */
export function namedPlace(path: string, skillDir: string, entries: readonly DirEntry[]): string | null {
  const slash = path.indexOf('/');
  const first = (slash === -1 ? path : path.slice(0, slash)).toLowerCase();
  const kind = slash === -1 ? 'file' : 'dir';
  return entries.some((e) => e.kind === kind && e.name.toLowerCase() === first) ? posix.normalize(inSkillDir(skillDir, path)) : null;
}

/** Where a link lands: the first of its places that exists (`existing`), else null. */
export function linkLanding(places: readonly string[], existing: ReadonlySet<string>): string | null {
  return places.find((p) => existing.has(p)) ?? null;
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
