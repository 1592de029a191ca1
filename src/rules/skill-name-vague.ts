import { defineRule } from '../engine/rule.js';
import { entryPlace, nameField } from './lib/frontmatter-fields.js';

/** Each vague term with the whole words that count as it. */
const VAGUE: readonly (readonly [string, readonly string[]])[] = [
  ['helper', ['helper', 'helpers']],
  ['utils', ['utils', 'util']],
  ['tools', ['tools']],
  ['misc', ['misc']],
];

/** A package SKILL.md installs (`pip install scvi-tools`, `npm i -D foo-utils`, `cargo add x`, `brew install y`). */
const INSTALLED =
  /\b(?:pip3?|uv pip|uv|pipx|poetry|conda|mamba|npm|pnpm|yarn|bun|cargo|gem|brew|go|apt(?:-get)?|dotnet|composer)\s+(?:install|add|i|get)\s+(?:-{1,2}[\w-]+(?:=\S+)?\s+)*([\w.@/-]+)/giu;
/** A site named after it (`https://docs.scvi-tools.org/…`, `https://foo-utils.dev`): each label of the host. */
const HOST = /\bhttps?:\/\/([\w.-]+)/giu;

/**
 * The names of the packages SKILL.md installs and of the sites it links (lower case): a name that is
 * one of them is a proper name — the library the skill covers — not a vague label.
 */
function properNames(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(INSTALLED))
    out.add(
      m[1]!
        .replace(/(?<=.)@.*$|\[.*$/u, '')
        .split('/')
        .pop()!
        .toLowerCase(),
    );
  for (const m of text.matchAll(HOST)) for (const label of m[1]!.toLowerCase().split('.')) out.add(label);
  return [...out];
}

export default defineRule<'vague', string[]>({
  meta: {
    code: 'skill-name-vague',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'naming',
    reads: ['frontmatter'],
    local: true,
    description: 'Disallow vague words (helper, utils, tools, misc) in the frontmatter name',
    scope: 'skill',
    reference: 'improved',
    messages: {
      vague: {
        message: "name '{name}' contains vague term '{term}'. Use a specific, descriptive name",
        help: 'Agents pick skills by name and description; say what the skill does, e.g. `formatting-changelogs`.',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check: ({ file }) => properNames(file.text),
  },
  check({ project, fileData, report }) {
    for (const skill of project.skills) {
      const name = nameField(skill);
      if (!name) continue;
      // whole words: split at anything but letters/digits and at camelCase humps
      const words = new Set(
        name.text
          .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u),
      );
      // the vague word is the subject when two or more other words say what it is about
      // (`akka-agent-tools`, `security-scanning-tools`); `git-helper` and `utils` say nothing more
      const vagueForms = new Set(VAGUE.flatMap(([, forms]) => forms));
      const others = [...words].filter((w) => w !== '' && !vagueForms.has(w)).length;
      if (others >= 2) continue;
      // `scvi-tools`, installed with `pip install scvi-tools`: the library's own name (a vague word alone never is)
      if (others >= 1 && (fileData(skill.skillFile.path) ?? []).includes(name.text.toLowerCase())) continue;
      for (const [term, forms] of VAGUE) {
        if (!forms.some((w) => words.has(w))) continue;
        report({ messageId: 'vague', data: { name: name.text, term }, at: entryPlace(skill, name.entry), skill: skill.name });
      }
    }
  },
});
