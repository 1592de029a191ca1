/** --fix for the required SKILL.md sections: the placeholder of each missing one, at its canonical place. */
import type { Config } from '../../config/schema.js';
import type { FileFacts, SourceFile } from '../../model/types.js';
import type { TextEdit } from '../../util/edits.js';
import { insertSectionsEdits } from './fix-sections.js';
import { canonicalSkillSections, skillSectionIndex, type CanonicalSkillSection } from './skill-sections.js';

/** Placeholders for the canonical sections that `which` selects and the file lacks. */
export function missingSkillSectionEdits(
  file: SourceFile,
  facts: FileFacts,
  config: Config,
  which: (c: CanonicalSkillSection) => boolean,
): TextEdit[] {
  const sections = facts.skill?.sections ?? [];
  const canonical = canonicalSkillSections(config);
  const present = new Set(sections.map((s) => s.key));
  const missing = canonical.filter((c) => which(c) && ![...c.keys].some((k) => present.has(k)));
  return missing.length === 0 ? [] : insertSectionsEdits(file, sections, missing, skillSectionIndex(canonical));
}
