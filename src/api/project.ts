/** Where a file's project is and which skill a name means: the queries of the runtime commands, the language server and the MCP server. */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CONFIG_FILE } from '../config/errors.js';
import { UsageError } from '../engine/errors.js';
import type { Project, Skill } from '../model/types.js';
import { didYouMean } from '../util/closest.js';
import { climbsOut } from '../util/paths.js';

/**
 * The project a runtime file (a state file, a trace) is checked in: `--project` when given; for a
 * file under the current directory, the nearest directory above it that holds a `.loopkit.yaml`
 * (not above the repository root); else — a file elsewhere, such as a log in /tmp, or no such
 * directory — the current directory. Returned as the user would type it (relative to `cwd`).
 */
export function projectFor(file: string, explicit: string | undefined, cwd: string): string {
  if (explicit !== undefined) return explicit;
  const abs = resolve(cwd, file);
  const rel = relative(cwd, abs);
  if (climbsOut(rel) || isAbsolute(rel)) return '.';
  for (let dir = dirname(abs); ; dir = dirname(dir)) {
    if (existsSync(join(dir, CONFIG_FILE))) return relative(cwd, dir) || '.';
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return '.';
  }
}

/** A file the user named must be a readable regular file: else a usage error naming it (exit 2). */
export function requireFile(file: string, what: string): void {
  let st;
  try {
    st = statSync(file);
  } catch {
    throw new UsageError(`${what} not found: ${file}`);
  }
  if (!st.isFile()) throw new UsageError(`${what} is not a file: ${file}`);
}

/** The path of a file relative to the project root, with `/` separators (as diagnostics carry it). */
export function projectPath(project: Pick<Project, 'root'>, file: string): string {
  return relative(project.root, resolve(file)).split(sep).join('/');
}

/** The skill named by `--skill`, or a usage error that lists the candidates. */
export function namedSkill(project: Project, name: string, candidates: readonly Skill[] = project.skills): Skill {
  const skill = project.skills.find((s) => s.name === name);
  if (skill) return skill;
  const names = candidates.map((s) => s.name);
  const list = names.length > 0 ? names.join(', ') : 'none';
  throw new UsageError(`unknown skill '${name}'${didYouMean(name, names)} (skills: ${list})`);
}

/**
 * The project a file belongs to, as discovery sees projects: the nearest directory above it with a
 * `.loopkit.yaml` (a folder with one is a project of its own); without one, the top of the git
 * repository (every SKILL.md of it is a skill); else null.
 */
export function projectOf(abs: string, isDir: boolean): string | null {
  for (let dir = isDir ? abs : dirname(abs); ; dir = dirname(dir)) {
    if (existsSync(join(dir, CONFIG_FILE))) return dir;
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}
