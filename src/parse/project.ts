/** Reads a whole project into the contract model (the only place that touches the file system). */
import { isAbsolute, join, relative, sep } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { discoverSkillDirs } from '../discover/discover.js';
import type { LoadProblem, Project, Skill } from '../model/types.js';
import { exists, isDirectory, readText } from './fs.js';
import { sourceFile } from './markdown.js';
import { loadSkill } from './skill.js';

/** A project that cannot be checked at all (exit 2). */
export class ProjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectError';
  }
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

export function loadProject(root: string, displayRoot: string, loaded: LoadedConfig): Project {
  const { config } = loaded;
  const absSkills = isAbsolute(config.skills_dir) ? config.skills_dir : join(root, config.skills_dir);
  const skillsDir = toPosix(relative(root, absSkills));
  if (!isDirectory(absSkills)) {
    const pos = loaded.valuePositions.get('skills_dir');
    const where = loaded.file && pos ? ` (skills_dir at ${loaded.file}:${pos.line}:${pos.column})` : '';
    throw new ProjectError(
      `skills directory '${config.skills_dir}' not found in ${displayRoot}${where}`,
    );
  }
  const problems: LoadProblem[] = [];
  const skills: Skill[] = [];
  for (const dir of discoverSkillDirs(root, skillsDir)) {
    const r = loadSkill(root, dir, config.state_model_aliases);
    problems.push(...r.problems);
    if (r.skill) skills.push(r.skill);
  }
  const readmeRead = readText(join(root, 'README.md'));
  const readme = 'text' in readmeRead ? sourceFile('README.md', readmeRead.text, true) : null;
  const existingPaths = new Set<string>();
  for (const f of config.loop_state_files) if (exists(join(root, f.path))) existingPaths.add(f.path);
  return {
    displayRoot,
    root,
    config,
    configPositions: loaded.positions,
    configFile: loaded.file,
    configWarnings: loaded.warnings,
    skillsDir,
    skills,
    problems,
    readme,
    existingPaths,
  };
}
