import { posix } from 'node:path';
import { defineRule } from '../engine/rule.js';
import { linkLanding, linkPlaces } from '../model/skill.js';
import { inSkillDir, isInsideDir } from '../model/skill-dir.js';
import { decodePath } from '../util/paths.js';
import { isAssetFile, isContractFile, isMetaFile, mentionedSiblings, referencedFiles, skillLinks } from './lib/skill-files.js';

export default defineRule({
  meta: {
    code: 'skill-deep-reference',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    reads: ['frontmatter', 'body', 'references', 'files'],
    local: true,
    description: 'Check that files linked from SKILL.md do not send agents on to further reference files',
    scope: 'skill',
    reference: 'improved',
    references: true,
    messages: {
      chain: {
        message: 'Reference chain deeper than one level: {target} references another reference file',
        help: 'Agents may read nested references only partially. Link the deeper file from SKILL.md directly, or merge it into this one.',
      },
    },
  },
  file: {
    kinds: ['skill'],
    // the markdown files of the skill that SKILL.md names by their path (`references/colors.md`)
    check: ({ file, siblings }) => mentionedSiblings(file, siblings),
  },
  check({ project, fileData, report }) {
    for (const { skill, target, file } of referencedFiles(project.skills)) {
      // LOOP.md / HANDOFFS.md are contracts and another skill's SKILL.md is that skill's business
      if (isContractFile(posix.basename(file.path))) continue;
      // the repository's AGENTS.md or README, linked for context, is not one of the skill's reference files
      if (isMetaFile(posix.basename(file.path))) continue;
      // a template or asset (`assets/templates/report.md`) is handed out whole; its links name the files of what it becomes
      if (isAssetFile(skill, file)) continue;
      const links = skillLinks(skill);
      // a file SKILL.md links or names is one step from it, whoever else links it
      const named = (fileData(skill.skillFile.path) ?? []).map((rel) => inSkillDir(skill.dir, rel));
      const direct = new Set([skill.skillFile.path, ...links.map((l) => l.path), ...named].map((p) => p.toLowerCase()));
      const own = file.path.toLowerCase();
      const nested = file.links.find((l) => {
        // where the link lands: beside the file, else from the skill directory (`references/b.md` inside references/a.md)
        const places = linkPlaces(decodePath(l.target), l.fromSkillDir === true, file.path, skill.dir);
        const landing = linkLanding(places, project.linkTargets);
        // a link to nothing leads no deeper (skill-broken-link or skill-reference-broken-link reports it)
        if (landing === null) return false;
        const path = landing.toLowerCase();
        // a document of the repository outside every skill (`../../../../docs/SHARED-SERVICES.md`) is not a
        // reference file (it ships with no skill); another skill's reference file still is
        if (!project.skills.some((s) => isInsideDir(landing, s.dir))) return false;
        // links back to SKILL.md, to itself, to a file SKILL.md links anyway, or to another
        // skill's SKILL.md (a handoff to that skill, not a deeper reference) add no depth
        // … nor does a file for people or for the agents editing the repository (a breadcrumb to the root CLAUDE.md)
        return path !== own && !direct.has(path) && !isContractFile(posix.basename(path)) && !isMetaFile(posix.basename(path));
      });
      if (!nested) continue;
      const from = links.find((l) => l.target === target);
      report({
        messageId: 'chain',
        data: { target },
        at: { file: file.path, line: nested.urlLine, column: nested.urlColumn },
        skill: skill.name,
        related: from
          ? [{ message: `linked from ${skill.skillFile.path}`, file: skill.skillFile.path, line: from.line, column: from.column }]
          : [],
      });
    }
  },
});
