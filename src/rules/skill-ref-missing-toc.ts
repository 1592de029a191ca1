import { posix } from 'node:path';
import { defineRule } from '../engine/rule.js';
import { inSkillDir, isInsideDir } from '../model/skill-dir.js';
import { isContractFile, isMetaFile, isTemplateFile, referencedFiles, skillLinks } from './lib/skill-files.js';
import { hasTableOfContents } from './lib/toc.js';

const MAX_LINES = 100;

export default defineRule({
  meta: {
    code: 'skill-ref-missing-toc',
    defaultSeverity: 'warning',
    certainty: 'heuristic',
    category: 'structure',
    reads: ['frontmatter', 'body', 'references'],
    local: true,
    description: 'Require a table of contents in reference files longer than 100 lines',
    scope: 'skill',
    reference: 'improved',
    references: true,
    messages: {
      noToc: {
        message: "Reference file '{target}' has {lines} lines but no table of contents",
        help: 'Agents often preview only the top of a long file. Add a "## Contents" list of links to its sections near the top.',
      },
    },
  },
  file: {
    kinds: ['reference', 'readme'],
    check: ({ file, facts }) => facts.file.lineCount > MAX_LINES && !hasTableOfContents(file),
  },
  check({ project, fileData, report }) {
    for (const { skill, target, file } of referencedFiles(project.skills)) {
      // LOOP.md, HANDOFFS.md and SKILL.md files are contracts, not reference files
      if (isContractFile(posix.basename(file.path))) continue;
      // the repository's CLAUDE.md or README is not reference reading, and a template in assets/ is
      // copied into what the skill produces (a table of contents would end up in every copy)
      if (isMetaFile(posix.basename(file.path)) || isInsideDir(file.path, inSkillDir(skill.dir, 'assets'))) continue;
      // … nor a template kept elsewhere (`references/brief-template.md`): a skeleton of the output, read whole
      if (isTemplateFile(skill, file)) continue;
      const lines = file.lineCount;
      if (fileData(file.path) !== true) continue;
      const from = skillLinks(skill).find((l) => l.target === target);
      report({
        messageId: 'noToc',
        data: { target, lines },
        at: { file: file.path, line: 1, column: 1 },
        skill: skill.name,
        related: from
          ? [{ message: `linked from ${skill.skillFile.path}`, file: skill.skillFile.path, line: from.line, column: from.column }]
          : [],
      });
    }
  },
});
