import { defineRule } from '../engine/rule.js';
import type { Skill } from '../model/types.js';
import { entryPlace, textField } from './lib/frontmatter-fields.js';

const URL_LIKE = /^[a-z][a-z0-9+.-]*:/iu;
/** A file name a license lives in: LICENSE, LICENCE, COPYING (any case), optionally `-MIT`, `.md`… */
const LICENSE_FILE = /^(?:licen[cs]e|copying)(?:[-._][\w.-]+)?$/iu;
/** Inside a sentence only the conventional upper-case spelling counts ("MIT license" is no file). */
const LICENSE_FILE_IN_TEXT = /^(?:LICEN[CS]E|COPYING)(?:[-._][\w.-]+)?$/u;
const DOC_FILE = /\.(?:txt|md)$/iu;

/**
 * The file the license value refers to, or null when it names a license (`MIT`, `Apache-2.0`,
 * `MIT license`, a URL). A single token is a file when its last path segment ends in .txt/.md or
 * is a license file name; in a longer text (`Proprietary. LICENSE.txt has the terms`) a word is a
 * file when it ends in .txt/.md or is an upper-case LICENSE/COPYING name.
 */
function licenseFileReference(value: string): string | null {
  const words = value.trim().split(/\s+/u);
  const single = words.length === 1;
  for (const word of words) {
    const token = single ? word : word.replace(/^[("'`[]+/u, '').replace(/[)"'`\]:;,.!?]+$/u, '');
    if (token === '' || URL_LIKE.test(token)) continue;
    const last = token.split('/').pop() ?? '';
    if (DOC_FILE.test(last) || (single ? LICENSE_FILE : LICENSE_FILE_IN_TEXT).test(last)) {
      // in a licence's own name ("CeCILL FREE SOFTWARE LICENSE AGREEMENT") the word is no file
      if (
        !single &&
        !DOC_FILE.test(last) &&
        !/[-._]/u.test(last) &&
        words.length > 2 &&
        words.every((w) => w === w.toUpperCase() || /^\p{Lu}/u.test(w))
      )
        continue;
      return token;
    }
  }
  return null;
}

/** Is the file missing from the skill directory? Undefined when that cannot be told from the listing. */
function missingFromSkill(skill: Skill, ref: string): boolean | undefined {
  const path = ref.replace(/^(?:\.\/)+/u, '');
  if (path.startsWith('/') || path.startsWith('../') || path.startsWith('~')) return undefined;
  const parts = path.split('/').filter((p) => p !== '');
  const first = skill.entries.find((e) => e.name === parts[0]);
  if (parts.length === 1) return first === undefined;
  // a nested path: only its first directory is visible in the listing
  return first === undefined || first.kind === 'file' ? true : undefined;
}

export default defineRule({
  meta: {
    code: 'skill-license-file-missing',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'frontmatter',
    reads: ['frontmatter', 'files'],
    local: true,
    description: 'Require a license file named in the frontmatter to exist in the skill directory',
    scope: 'skill',
    reference: 'improved',
    messages: {
      missing: {
        message: "license field references file '{license}' but it does not exist in the skill directory",
        help: 'Add the file to the skill directory, or give the license name instead (e.g. `license: MIT`).',
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      const f = textField(skill, 'license', true);
      const ref = f ? licenseFileReference(f.text) : null;
      if (!f || ref === null || missingFromSkill(skill, ref) !== true) continue;
      report({ messageId: 'missing', data: { license: ref }, at: entryPlace(skill, f.entry), skill: skill.name });
    }
  },
});
