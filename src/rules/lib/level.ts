/** The `level: L1-RIGID` frontmatter convention (trimmed, case-insensitive). */
import type { FrontmatterEntry, Skill } from '../../model/types.js';

/** The frontmatter `level` entry when it says L1-RIGID, else undefined. */
export function l1RigidEntry(skill: Skill): FrontmatterEntry | undefined {
  const entry = skill.frontmatter?.entries.find((e) => e.key === 'level');
  if (entry === undefined || typeof entry.value !== 'string') return undefined;
  return entry.value.trim().toLowerCase() === 'l1-rigid' ? entry : undefined;
}
