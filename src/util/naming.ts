/**
 * Naming: what the Agent Skills specification accepts as a skill name (shared by the name rules,
 * so that no rule suggests a name another one rejects), and the Loop Language's conventions:
 * kebab-case states, gerund-first skill names.
 */
import { charLength } from './text.js';

/** The longest skill name the Agent Skills specification accepts, in characters. */
export const SKILL_NAME_MAX = 64;

/** Words no skill name may contain (Anthropic's loader rejects them). */
export const RESERVED_NAME_WORDS = ['anthropic', 'claude'] as const;

export type SkillNameProblem =
  'too-long' | 'invalid-chars' | 'leading-hyphen' | 'trailing-hyphen' | 'consecutive-hyphens' | 'reserved-word';

/**
 * What the specification (and, for the reserved words, Anthropic's loader) rejects in a skill
 * name: 1-64 characters, lower-case letters, digits and hyphens, no hyphen at either end, no `--`.
 */
export function skillNameProblems(name: string): SkillNameProblem[] {
  const out: SkillNameProblem[] = [];
  if (charLength(name) > SKILL_NAME_MAX) out.push('too-long');
  if (!/^[a-z0-9-]*$/u.test(name)) out.push('invalid-chars');
  if (name.startsWith('-')) out.push('leading-hyphen');
  if (name.endsWith('-')) out.push('trailing-hyphen');
  if (name.includes('--')) out.push('consecutive-hyphens');
  const lower = name.toLowerCase();
  if (RESERVED_NAME_WORDS.some((w) => lower.includes(w))) out.push('reserved-word');
  return out;
}

/** Would a skill of this name pass every rule about the name's form? */
export function isValidSkillName(name: string): boolean {
  return name !== '' && skillNameProblems(name).length === 0;
}

/**
 * A plugin's namespace written into the name (`plugin:skill-name`): clients add it themselves,
 * so it is not part of the name. Null when the name has no `:` with text on both sides.
 */
export function namespacedName(name: string): { namespace: string; name: string } | null {
  const m = /^([^:\s]+):([^:\s]+)$/u.exec(name.trim());
  return m ? { namespace: m[1]!, name: m[2]! } : null;
}

/**
 * The nearest valid name to what was written: `My_Skill` → `my-skill`, `Café Tools` → `cafe-tools`,
 * `plugin:skill-name` → `skill-name`, without the reserved words, cut to 64 characters. '' when
 * nothing of it is left.
 */
export function validNameFrom(written: string): string {
  const bare = namespacedName(written)?.name ?? written;
  const words = bare
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1-$2')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/u)
    .filter((w) => w !== '' && !RESERVED_NAME_WORDS.some((r) => w.includes(r)));
  return words.join('-').slice(0, SKILL_NAME_MAX).replace(/-+$/u, '');
}

/**
 * The name to suggest for a skill whose frontmatter says `written` and whose folder is `dir`, one
 * no name rule rejects: a skill's name must equal its folder's, so the folder's name when that is
 * valid; else the nearest valid name to what was written (or to the folder's name), and the folder
 * must be renamed to it too. `name` is '' when neither gives one.
 */
export function suggestedSkillName(written: string, dir: string): { name: string; renameFolder: boolean } {
  if (isValidSkillName(dir)) return { name: dir, renameFolder: false };
  const name = validNameFrom(written) || validNameFrom(dir);
  return { name, renameFolder: true };
}

/** Words ending in "ing" that are not gerunds. */
const NOT_GERUNDS = new Set([
  'thing',
  'string',
  'spring',
  'ring',
  'king',
  'wing',
  'bring',
  'sing',
  'sting',
  'swing',
  'sling',
  'cling',
  'fling',
  'ping',
  'ding',
  'ceiling',
  'morning',
  'evening',
  'nothing',
  'something',
  'anything',
  'everything',
  'during',
]);

/** Is this single word a gerund (verb + "ing")? */
export function isGerundWord(word: string): boolean {
  const w = word.toLowerCase();
  return w.length >= 5 && w.endsWith('ing') && !NOT_GERUNDS.has(w);
}

/** A skill name in gerund form: its first hyphen-separated word is a gerund (`running-tdd-loops`). */
export function isGerundName(name: string): boolean {
  return isGerundWord(name.split('-')[0] ?? '');
}

export type NameClass = 'gerund' | 'noun' | 'action-prefix';

/** gerund (`writing-stories`), action-prefix (`story-writer`, `tdd-loops`) or noun (`deploy`). */
export function nameClass(name: string): NameClass {
  if (isGerundName(name)) return 'gerund';
  return name.includes('-') ? 'action-prefix' : 'noun';
}

/**
 * Why a state name breaks the Loop Language naming rule, or null when it is fine: lower-case
 * kebab-case with at least one hyphen; a name without a hyphen only when it is an enforced state.
 */
export function stateNameProblem(name: string, enforced: ReadonlySet<string>): string | null {
  if (name.length > 128) return 'is longer than 128 characters';
  if (/[A-Z]/.test(name)) return 'has upper-case letters (use lower-case kebab-case)';
  if (!/^[a-z0-9-]+$/.test(name)) {
    const bad = [...new Set(name.replace(/[a-z0-9-]/g, ''))].map((ch) => `'${ch}'`).join(', ');
    return `contains ${bad} (only a-z, 0-9 and hyphens are allowed)`;
  }
  if (/^-|-$/.test(name)) return 'starts or ends with a hyphen';
  if (name.includes('--')) return "contains '--'";
  if (!name.includes('-')) {
    if (enforced.has(name)) return null;
    return 'has no hyphen (a one-word state is allowed only when it is listed in enforced_states)';
  }
  return null;
}

/**
 * Is a backticked token in a State Model section a state? Kebab-case with a hyphen (or an enforced
 * name), no paths, and not the name of a skill.
 */
export function isStateLike(token: string, enforced: ReadonlySet<string>, skillNames: ReadonlySet<string>): boolean {
  if (token === '' || token.length > 128) return false;
  if (/[/\\]|:\/\//.test(token)) return false;
  if (skillNames.has(token)) return false;
  if (enforced.has(token)) return true;
  return /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(token);
}
