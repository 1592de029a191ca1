import { defineRule } from '../engine/rule.js';
import type { UncheckedReason } from '../model/types.js';
import { EVERY } from './lib/loaders.js';

export default defineRule({
  meta: {
    code: 'skill-outside-skills-dir',
    defaultSeverity: 'error',
    certainty: 'definite',
    loaders: EVERY,
    category: 'discovery',
    reads: ['files'],
    description: 'Disallow a SKILL.md that is not checked: outside the skills directories, directly in one, or at the project root',
    scope: 'project',
    reference: 'new',
    messages: {
      outside: {
        message: 'The skill in {dir}/ was not checked: it is outside skills_dir ({dirs})',
        help: 'To check it, add its folder {folder} to skills_dir in {config}; if it is not a skill of this project (a draft, a copy, an example), add {dir}/ to ignores: in {config} instead.',
      },
      'skills-dir': {
        message: 'This SKILL.md was not checked: it lies directly in the skills directory {dir}/, whose skills are the folders inside it',
        help: 'Move it into a folder of its own inside {dir}/, or name the folder above {dir}/ in skills_dir; if it is not a skill, add {dir}/SKILL.md to ignores: in {config}.',
      },
      root: {
        message: 'The skill at the project root was not checked: it is outside skills_dir ({dirs})',
        help: 'To check it (a repository that is one skill, or a router skill at the top of its collection), add . to skills_dir in {config}: the root is then a skills directory, whose own SKILL.md is a skill too; if the file is not a skill, add /SKILL.md to ignores: in {config}.',
      },
    } satisfies Record<UncheckedReason, { message: string; help: string }>,
  },
  check({ project, report }) {
    const shown = (d: string) => (d === '' ? './' : `${d}/`);
    // skills_dir as written (a glob stays one), or the default
    const dirs = project.config.skills_dir.join(', ');
    const config = project.configFile ?? '.loopkit.yaml';
    for (const u of project.unchecked ?? []) {
      const folder = u.dir.includes('/') ? shown(u.dir.slice(0, u.dir.lastIndexOf('/'))) : './';
      report({
        messageId: u.reason,
        data: { dir: u.dir, dirs, folder, config },
        at: { file: u.dir === '' ? 'SKILL.md' : `${u.dir}/SKILL.md`, line: null },
      });
    }
  },
});
