/** Naming conventions of the Loop Language: kebab-case states, gerund-first skill names. */

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
