/**
 * State files against a skill's Loop State Schema: the queries `loopkit state`, `watch` and the MCP
 * server share.
 */
import { extname } from 'node:path';
import { UsageError } from '../engine/errors.js';
import type { LintResult } from '../engine/run.js';
import { compileSchema, skillStates, type CompiledSchema } from '../model/schema.js';
import type { Project, Skill } from '../model/types.js';
import { parseJson, type DataResult } from '../parse/data.js';
import { readText } from '../parse/fs.js';
import { runtimeReport } from '../reporters/runtime.js';
import type { Report } from '../reporters/types.js';
import { STATE_FILE_CODES } from '../runtime/codes.js';
import { checkStateFile } from '../runtime/state-check.js';
import { lint } from './engine.js';
import { namedSkill, projectFor, projectPath, requireFile } from './project.js';

/** The static rule that reads the schema table: its problems are shown with the state file's. */
const SCHEMA_RULE = 'loop-invalid-state-schema';

/** JSON by extension (`.json`), YAML by extension (`.yaml`, `.yml`); otherwise JSON when the text starts like JSON. */
export function stateFormat(file: string, text: string): 'JSON' | 'YAML' {
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return 'JSON';
  if (ext === '.yaml' || ext === '.yml') return 'YAML';
  return /^\uFEFF?\s*[{[]/u.test(text) ? 'JSON' : 'YAML';
}

export async function parseStateText(text: string, format: 'JSON' | 'YAML'): Promise<DataResult> {
  if (format === 'JSON') return parseJson(text);
  const { parseYaml } = await import('../parse/yaml-data.js');
  return parseYaml(text);
}

/** The skill whose schema a state file follows: --skill, or the only skill that has a schema table; with its compiled schema. */
export function skillSchema(project: Project, name: string | undefined): { skill: Skill; schema: CompiledSchema } {
  const withSchema = project.skills.filter((s) => s.loop?.stateSchema);
  let skill: Skill;
  if (name !== undefined) skill = namedSkill(project, name, withSchema);
  else if (withSchema.length === 1) skill = withSchema[0]!;
  else {
    throw new UsageError(
      withSchema.length === 0
        ? 'no skill of the project has a Loop State Schema table'
        : `name the skill with --skill (skills with a Loop State Schema table: ${withSchema.map((s) => s.name).join(', ')})`,
    );
  }
  const facts = skill.loop?.stateSchema;
  if (!facts) {
    const where = skill.loop ? `${skill.loop.file.path} has no` : 'it has no LOOP.md, so no';
    throw new UsageError(
      `skill '${skill.name}' cannot check a state file: ${where} Loop State Schema table (| field | type | description |)`,
    );
  }
  return { skill, schema: compileSchema(facts, skillStates(skill)) };
}

/** The project's model for the state-file commands: the schema tables checked by their static rule. */
export function loadStateProject(root: string): Promise<LintResult> {
  return lint({ root, only: [SCHEMA_RULE] });
}

/**
 * A state file's text against a skill's schema, in a project already read: the report (with the
 * problems the static rule found in that skill's schema table). `path` is project-relative.
 */
export async function stateReport(
  result: Pick<LintResult, 'project' | 'diagnostics' | 'rules'>,
  skill: Skill,
  schema: CompiledSchema,
  path: string,
  text: string,
): Promise<Report> {
  const format = stateFormat(path, text);
  const checked = checkStateFile({ skill, schema, file: path, format, parsed: await parseStateText(text, format) });
  const own = result.diagnostics.filter((d) => d.skill === skill.name && d.code === SCHEMA_RULE);
  const diagnostics = [...own, ...checked.diagnostics];
  const counted = `${checked.checked} value${checked.checked === 1 ? '' : 's'} checked against the Loop State Schema of ${skill.name}`;
  const rules = [...result.rules.filter((r) => r.code === SCHEMA_RULE), ...STATE_FILE_CODES];
  return runtimeReport(result.project, diagnostics, rules, checked.checked, counted, [path]);
}

/** Read a state file the user named, or a UsageError. */
export function readStateFile(file: string): string {
  const read = readText(file);
  if ('error' in read) throw new UsageError(`cannot read state file ${file}: ${read.error}`);
  return read.text;
}

/**
 * Check a state file (the library entry of `loopkit state`): the report, or a UsageError /
 * ProjectError / ConfigError for input that cannot be checked.
 */
export async function checkState(file: string, opts: { skill?: string | undefined; project?: string | undefined } = {}): Promise<Report> {
  requireFile(file, 'state file');
  const root = projectFor(file, opts.project, process.cwd());
  const result = await loadStateProject(root);
  const { skill, schema } = skillSchema(result.project, opts.skill);
  return stateReport(result, skill, schema, projectPath(result.project, file), readStateFile(file));
}
