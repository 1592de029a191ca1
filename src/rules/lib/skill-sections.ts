/**
 * The SKILL.md sections required by `canonical_skill_sections`, sorted into the ones with their own
 * rule (Description, Rules, the state model) and the rest. Matching uses sectionKey() everywhere.
 */
import type { Config } from '../../config/schema.js';
import type { Skill } from '../../model/types.js';
import { sectionKey } from '../../util/text.js';

export interface RequiredSkillSections {
  description: boolean;
  rules: boolean;
  /** "State Model" or any state-model alias is listed */
  stateModel: boolean;
  /** every other listed section, as written in the config, de-duplicated by key, in config order */
  others: string[];
}

export function requiredSkillSections(config: Config): RequiredSkillSections {
  const aliasKeys = new Set([sectionKey('State Model'), ...config.state_model_aliases.map(sectionKey)]);
  const out: RequiredSkillSections = { description: false, rules: false, stateModel: false, others: [] };
  const seen = new Set<string>();
  for (const name of config.canonical_skill_sections) {
    const key = sectionKey(name);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    if (key === 'description') out.description = true;
    else if (key === 'rules') out.rules = true;
    else if (aliasKeys.has(key)) out.stateModel = true;
    else out.others.push(name.trim().replace(/\s+/g, ' '));
  }
  return out;
}

/** The H2 sections of SKILL.md whose heading matches `name` (case- and space-insensitive). */
export function skillSections(skill: Skill, name: string): Skill['sections'] {
  const key = sectionKey(name);
  return skill.sections.filter((s) => s.key === key);
}

/** Does SKILL.md have an H2 section named like one of `names`? */
export function hasSkillSection(skill: Skill, names: readonly string[]): boolean {
  const keys = new Set(names.map(sectionKey));
  return skill.sections.some((s) => keys.has(s.key));
}

/** One entry of canonical_skill_sections: the heading --fix writes, and the section keys that satisfy it. */
export interface CanonicalSkillSection {
  name: string;
  index: number;
  role: 'description' | 'rules' | 'stateModel' | 'other';
  /** section keys that count as this section (the state model: every alias) */
  keys: ReadonlySet<string>;
}

/** canonical_skill_sections in configured order (de-duplicated by key, the state model once). */
export function canonicalSkillSections(config: Config): CanonicalSkillSection[] {
  const aliasKeys = new Set([sectionKey('State Model'), ...config.state_model_aliases.map(sectionKey)]);
  // what satisfies the state model (as skill-missing-state-model judges it)
  const stateModelNames = config.state_model_aliases.length > 0 ? config.state_model_aliases : ['State Model'];
  const stateModelKeys = new Set(stateModelNames.map(sectionKey));
  const out: CanonicalSkillSection[] = [];
  const seen = new Set<string>();
  for (const raw of config.canonical_skill_sections) {
    const key = sectionKey(raw);
    if (key === '') continue;
    const role = key === 'description' ? 'description' : key === 'rules' ? 'rules' : aliasKeys.has(key) ? 'stateModel' : 'other';
    const id = role === 'stateModel' ? '$state-model' : key;
    if (seen.has(id)) continue;
    seen.add(id);
    let name = raw.trim().replace(/\s+/g, ' ');
    if (role === 'stateModel' && !stateModelKeys.has(key)) name = stateModelNames[0]!.trim().replace(/\s+/g, ' ');
    out.push({ name, index: out.length, role, keys: role === 'stateModel' ? stateModelKeys : new Set([key]) });
  }
  return out;
}

/** The canonical position of a SKILL.md section key (undefined for sections outside the list). */
export function skillSectionIndex(canonical: readonly CanonicalSkillSection[]): (key: string) => number | undefined {
  return (key) => canonical.find((c) => c.keys.has(key))?.index;
}
