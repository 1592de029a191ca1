/**
 * `loopkit state <file> [--skill <name>]`: a runtime state file (JSON or YAML) against the Loop
 * State Schema table of a skill's LOOP.md. Exit codes as for `check`: 0 clean, 1 errors, 2 for a
 * file that cannot be read, an unknown skill, a skill without a schema table, or a broken config.
 */
import { extname } from 'node:path';
import { UsageError } from '../engine/errors.js';
import { lint, type LintResult } from '../engine/run.js';
import { compileSchema, skillStates } from '../model/schema.js';
import type { Skill } from '../model/types.js';
import { parseJson, type DataResult } from '../parse/data.js';
import { readText } from '../parse/fs.js';
import type { Report } from '../reporters/types.js';
import { STATE_FILE_CODES } from '../runtime/codes.js';
import { checkStateFile } from '../runtime/state-check.js';
import { runCommand, runtimeReport, type CliIo, type OutputOptions } from './output.js';
import { namedSkill, projectFor, projectPath, requireFile } from './project.js';

export interface StateOptions extends OutputOptions {
  skill?: string;
  project?: string;
}

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

/** The skill whose schema the file is checked against: --skill, or the only skill that has a schema table. */
function chooseSkill(result: LintResult, name: string | undefined): Skill {
  const withSchema = result.project.skills.filter((s) => s.loop?.stateSchema);
  if (name !== undefined) return namedSkill(result.project, name, withSchema);
  if (withSchema.length === 1) return withSchema[0]!;
  throw new UsageError(
    withSchema.length === 0
      ? 'no skill of the project has a Loop State Schema table'
      : `name the skill with --skill (skills with a Loop State Schema table: ${withSchema.map((s) => s.name).join(', ')})`,
  );
}

/**
 * Check a state file (the library entry of `loopkit state`): the report, or a UsageError /
 * ProjectError / ConfigError for input that cannot be checked.
 */
export async function checkState(file: string, opts: Pick<StateOptions, 'skill' | 'project'> = {}): Promise<Report> {
  requireFile(file, 'state file');
  const root = projectFor(file, opts.project, process.cwd());
  const result = await lint({ root, only: [SCHEMA_RULE] });
  const skill = chooseSkill(result, opts.skill);
  const facts = skill.loop?.stateSchema;
  if (!facts) {
    const where = skill.loop ? `${skill.loop.file.path} has no` : 'it has no LOOP.md, so no';
    throw new UsageError(
      `skill '${skill.name}' cannot check a state file: ${where} Loop State Schema table (| field | type | description |)`,
    );
  }
  const read = readText(file);
  if ('error' in read) throw new UsageError(`cannot read state file ${file}: ${read.error}`);
  const format = stateFormat(file, read.text);
  const schema = compileSchema(facts, skillStates(skill));
  const path = projectPath(result.project, file);
  const checked = checkStateFile({ skill, schema, file: path, format, parsed: await parseStateText(read.text, format) });
  const diagnostics = [...result.diagnostics.filter((d) => d.skill === skill.name), ...checked.diagnostics];
  const counted = `${checked.checked} value${checked.checked === 1 ? '' : 's'} checked against the Loop State Schema of ${skill.name}`;
  return runtimeReport(result.project, diagnostics, [...result.rules, ...STATE_FILE_CODES], checked.checked, counted, [path]);
}

export function runState(file: string, opts: StateOptions, io: CliIo): Promise<number> {
  return runCommand(() => checkState(file, opts), opts.project ?? projectFor(file, undefined, process.cwd()), opts, io);
}
