/** Places in a SKILL.md that several rules point at (the `name` key, the start of the body). */
import type { Skill } from '../../model/types.js';

export interface LinePlace {
  line: number;
  column: number;
}

/** Where the frontmatter `name` key is written; line 1 column 1 when there is none. */
export function namePlace(skill: Skill): LinePlace {
  const entry = skill.frontmatter?.entries.find((e) => e.key === 'name');
  return entry ? { line: entry.line, column: entry.column } : { line: 1, column: 1 };
}

/** 0-based index of the first body line: the line after the closing `---`, or 0 without frontmatter. */
function bodyLineIndex(skill: Skill): number {
  const end = skill.frontmatter?.endLine ?? null;
  return end === null ? 0 : end;
}

/**
 * The first line after the frontmatter (line 1 without a closed frontmatter), column 1: the place
 * where something missing from the body of SKILL.md belongs. Never past the last line.
 */
export function bodyStartPlace(skill: Skill): LinePlace {
  return { line: Math.min(bodyLineIndex(skill) + 1, skill.skillFile.lines), column: 1 };
}
