import { defineRule } from '../engine/rule.js';
import type { FileModel, Skill } from '../model/types.js';
import { linkLanding, linkPlaces } from '../model/skill.js';
import { isAssetFile, isSkeletonSkill, ownReferenceFiles } from './lib/skill-files.js';

export default defineRule({
  meta: {
    code: 'skill-broken-link',
    defaultSeverity: 'error',
    certainty: 'definite',
    category: 'structure',
    description:
      'Require every relative link and image in SKILL.md and its reference files to point at a file that exists, named in its case',
    scope: 'skill',
    reference: 'new',
    references: true,
    messages: {
      missing: {
        message: "{kind} '{url}' points at '{path}', which does not exist",
        help: 'An agent that follows it finds nothing. Fix the path (it is relative to {base}), add the file, or remove the {what}.',
      },
      otherCase: {
        message: "{kind} '{url}' points at '{path}', which exists only as '{actual}' (another case)",
        help: 'Names are compared as the directory lists them: macOS and Windows ignore the case and find the file, Linux (and most CI machines) does not. Write the name as it is on disk.',
      },
    },
  },
  check({ project, report }) {
    const check = (skill: Skill, file: FileModel) => {
      for (const link of file.localLinks) {
        if (link.path === '') continue; // an anchor of the file itself: skill-broken-anchor
        const places = linkPlaces(link.path, link.fromSkillDir === true, file.path, skill.dir);
        if (linkLanding(places, project.linkTargets) !== null) continue;
        // a missing file in a hidden folder (`.github/pull_request_template.md`, `.dbt-wiki/lineage.md`) is one
        // of the project the skill works on, or one the skill's tool writes there: not the skill's own file
        if (/^\.[^./\\]/u.test(link.path)) continue;
        // a place that exists in another case (`Security.md` for `security.md`) is named wrongly, not missing
        const other = places.findIndex((p) => typeof project.pathsOnDisk.get(p) === 'string');
        const path = places[Math.max(other, 0)]!;
        const actual = other >= 0 ? project.pathsOnDisk.get(path)! : undefined;
        report({
          messageId: actual ? 'otherCase' : 'missing',
          data: {
            kind: link.image ? 'Image' : 'Link',
            what: link.image ? 'image' : 'link',
            url: link.url,
            path,
            base: link.fromSkillDir ? 'the skill directory' : 'the file that holds it',
            ...(actual ? { actual } : {}),
          },
          at: { file: file.path, line: link.line, column: link.column },
          skill: skill.name,
        });
      }
    };
    // a skill that is a skeleton to copy (`template/SKILL.md`) links the files its copies will have
    for (const skill of project.skills) if (!isSkeletonSkill(skill)) check(skill, skill.skillFile);
    // a skill's own reference files; another skill's files, contracts and the repository's README are theirs to check
    for (const { skill, file } of ownReferenceFiles(project.skills)) {
      // a template (`references/TEMPLATE.md`) or a file of `assets/` (what the skill hands out, such as the
      // skeleton of a document it writes) links the files of what it becomes, not this skill's
      if (!isSkeletonSkill(skill) && !isAssetFile(skill, file)) check(skill, file);
    }
  },
});
