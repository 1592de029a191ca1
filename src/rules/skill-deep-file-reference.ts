import { defineRule } from '../engine/rule.js';
import { posix } from 'node:path';
import { isSkillReferencePath } from '../model/skill-dir.js';
import { directoryLevels, resolveTarget } from '../util/paths.js';
import { isAssetPath, isContractFile } from './lib/skill-files.js';

export default defineRule({
  meta: {
    code: 'skill-deep-file-reference',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    reads: [],
    description: 'Check that SKILL.md links to markdown files at most one directory level down',
    scope: 'skill',
    reference: 'improved',
    messages: {
      deep: {
        message: "File reference '{target}' is more than one level deep. Keep references one level deep from SKILL.md",
        help: 'Keep reference files next to SKILL.md or in one sub-folder (references/guide.md).',
      },
    },
  },
  file: {
    kinds: ['skill'],
    check({ file, facts, report }) {
      // each file once, at its first link: a second link to it is no second problem
      const seen = new Set<string>();
      // relative .md links and definitions only: URLs, absolute paths and #anchors are not file references
      for (const link of facts.file.links) {
        // another skill's SKILL.md (or LOOP.md) is a handoff to that skill, not a reference file
        if (isContractFile(posix.basename(link.target))) continue;
        // levels of the path as it resolves from the skill directory: `./refs/a.md` is one level
        const dir = posix.dirname(file.path);
        const target = resolveTarget(file.path, link.target);
        const relative = posix.relative(dir, target);
        // a file outside the skill (the repository's `docs/decisions/x.md`) is not one of its reference
        // files, nor one in a hidden folder (`.github/…` of a repository that is one skill)
        if (relative.startsWith('../') || !isSkillReferencePath(dir === '.' ? '' : dir, target)) continue;
        if (directoryLevels(relative) <= 1) continue;
        // a template or asset (`assets/templates/report.md`) is handed out, not read as a reference
        if (isAssetPath(relative)) continue;
        if (seen.has(relative.toLowerCase())) continue;
        seen.add(relative.toLowerCase());
        report({ messageId: 'deep', data: { target: link.target }, at: { file: file.path, line: link.urlLine, column: link.urlColumn } });
      }
    },
  },
});
