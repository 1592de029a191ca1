/**
 * What the rules about the skill name share: the name as written (text only: a value that is no
 * text is skill-missing-name's), and the advice they give — a value for `name:` that no rule about
 * the name rejects (valid in form, and equal to the folder's name, or with the folder renamed to it).
 */
import type { FrontmatterEntry, Skill } from '../../model/types.js';
import { suggestedSkillName, validNameFrom } from '../../util/naming.js';
import { nameField } from './frontmatter-fields.js';

/** The frontmatter name when it is written as text (not a number, list or map), else undefined. */
export function writtenName(skill: Skill): { entry: FrontmatterEntry; text: string } | undefined {
  const name = nameField(skill);
  return name && typeof name.entry.value === 'string' ? name : undefined;
}

/**
 * The skill's name when its author chose it: the frontmatter's, or (without one) its folder's — but
 * not the folder a root skill was checked out or installed in, which names it for messages only.
 * Null for a root skill without a name of its own: there is no naming choice to judge.
 */
export function chosenName(skill: Skill): string | null {
  return skill.dir !== '' || (writtenName(skill)?.text.trim() ?? '') !== '' ? skill.name : null;
}

/**
 * The written name when it holds only a-z, 0-9 and '-': the hyphen rules judge it. A name with
 * other characters is skill-name-invalid-chars' alone (its advice mends the hyphens too).
 */
export function kebabCharsName(skill: Skill): { entry: FrontmatterEntry; text: string } | undefined {
  const name = writtenName(skill);
  return name && /^[a-z0-9-]+$/u.test(name.text) ? name : undefined;
}

/**
 * `` write `name: x`, the name of its folder `` — lower-case first, for the middle of a sentence.
 * The root skill's folder is wherever the repository was cloned: its name is the nearest valid one
 * to what was written (or to that folder's name), and no folder is to be renamed.
 */
export function nameAdvice(written: string, skill: Skill): string {
  if (skill.dir === '') {
    const name = validNameFrom(written) || validNameFrom(skill.dirName);
    return name === '' ? 'choose a lower-case kebab-case name' : `write \`name: ${name}\``;
  }
  const s = suggestedSkillName(written, skill.dirName);
  if (s.name === '') return 'choose a lower-case kebab-case name, and give the folder the same name';
  return s.renameFolder
    ? `write \`name: ${s.name}\` and rename the folder to \`${s.name}\``
    : `write \`name: ${s.name}\`, the name of its folder`;
}
