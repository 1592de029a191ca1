/**
 * `loopkit init [dir]`: a commented `.loopkit.yaml` (with a `$schema` comment for editors) whose
 * preset fits the project — Loop Language when it has LOOP.md contracts or no skills yet, Agent
 * Skills for a plain skill collection — and, in a project without skills, one example skill that
 * passes `loopkit check`. Never overwrites a file; asks before writing when run in a terminal
 * (`--yes` does not ask).
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { CliIo } from './output.js';
import { CONFIG_FILE } from '../config/errors.js';
import { PRESET_NAMES } from '../config/presets.js';
import { foldersOf } from '../discover/discover.js';
import { everySkill } from '../engine/project.js';
import { UsageError } from '../engine/errors.js';
import { packageRoot } from '../reporters/docs.js';
import { closest } from '../util/closest.js';
import { configTemplate, exampleSkill, type ConfigTemplate } from './init-templates.js';

export interface InitOptions {
  preset?: string;
  yes?: boolean;
}

const SCHEMA_IN_PACKAGE = 'schema/loopkit.schema.json';
const posix = (p: string) => p.split(sep).join('/');

/** The `$schema` for the comment: the installed package's schema when the project can see it, else where a local install puts it. */
function schemaReference(root: string): { schema: string; note?: string } {
  const pkg = packageRoot();
  if (pkg !== null && existsSync(join(pkg, SCHEMA_IN_PACKAGE))) {
    const parts = pkg.split(sep);
    const nm = parts.lastIndexOf('node_modules');
    // installed in node_modules of the project or of a directory above it (not a global or npx install)
    if (nm > 0) {
      const owner = parts.slice(0, nm).join(sep) || sep;
      const rel = relative(owner, root);
      if (!rel.startsWith('..') && !rel.startsWith(sep)) return { schema: posix(relative(root, join(pkg, SCHEMA_IN_PACKAGE))) };
    }
  }
  return {
    schema: `node_modules/loopkit/${SCHEMA_IN_PACKAGE}`,
    note: 'Editors find the schema once loopkit is installed in the project: npm install --save-dev loopkit',
  };
}

interface Plan {
  root: string;
  preset: ConfigTemplate['preset'];
  why: string;
  files: Record<string, string>;
}

export function planInit(dirArg: string, opts: InitOptions): Plan {
  const root = resolve(dirArg);
  if (existsSync(root) && !statSync(root).isDirectory()) throw new UsageError(`not a directory: ${dirArg}`);
  if (opts.preset !== undefined && !PRESET_NAMES.includes(opts.preset)) {
    const guess = closest(opts.preset, PRESET_NAMES);
    throw new UsageError(
      `unknown preset '${opts.preset}'${guess ? `; did you mean '${guess}'?` : ''} (presets: ${PRESET_NAMES.join(', ')})`,
    );
  }
  if (existsSync(join(root, CONFIG_FILE))) {
    throw new UsageError(
      `${posix(join(dirArg, CONFIG_FILE))} already exists; loopkit init never overwrites a file (edit it, or remove it first)`,
    );
  }
  // the skills the project has already: every SKILL.md that is not ignored
  const skills = existsSync(root) ? everySkill(root) : [];
  const hasLoop = skills.some((s) => existsSync(join(root, s, 'LOOP.md')));
  let preset: ConfigTemplate['preset'];
  let why: string;
  if (opts.preset !== undefined) {
    preset = opts.preset as ConfigTemplate['preset'];
    why = 'as asked';
  } else if (skills.length === 0) {
    preset = 'loop-language';
    why = 'no skills yet, so an example Loop Language skill is added; --preset agent-skills for a plain Agent Skill';
  } else if (hasLoop) {
    preset = 'loop-language';
    why = `${skills.length} skill${skills.length === 1 ? '' : 's'}, with LOOP.md contracts`;
  } else {
    preset = 'agent-skills';
    why = `${skills.length} skill${skills.length === 1 ? '' : 's'} without LOOP.md, a plain Agent Skills collection; --preset loop-language for Loop Language contracts`;
  }
  const example = skills.length === 0;
  const files: Record<string, string> = {
    [CONFIG_FILE]: configTemplate({
      preset,
      ...schemaReference(root),
      // the agent-skills preset finds every SKILL.md without skills_dir; loop-language needs the folders that hold them
      skillsDirs: example ? ['skills'] : preset === 'loop-language' ? foldersOf(skills).map((d) => (d === '' ? '.' : d)) : [],
      example,
    }),
  };
  if (example) Object.assign(files, exampleSkill(preset, 'skills'));
  const taken = Object.keys(files).filter((f) => existsSync(join(root, f)));
  if (taken.length > 0) {
    throw new UsageError(
      `${taken.map((f) => posix(join(dirArg, f))).join(', ')} already exist${taken.length === 1 ? 's' : ''}; loopkit init never overwrites a file`,
    );
  }
  return { root, preset, why, files };
}

export async function runInit(dirArg: string | undefined, opts: InitOptions, io: CliIo): Promise<number> {
  const dir = dirArg ?? '.';
  const plan = planInit(dir, opts);
  const shown = (f: string) => (dir === '.' ? f : posix(join(dir, f)));
  const names = Object.keys(plan.files);
  if (io.ask && !opts.yes) {
    const lines = [`loopkit init will write, with preset ${plan.preset} (${plan.why}):`, ...names.map((f) => `  ${shown(f)}`)];
    io.stdout(`${lines.join('\n')}\n`);
    const answer = (await io.ask('Write these files? [Y/n] ')).trim();
    if (/^n/iu.test(answer)) {
      io.stdout('Nothing written.\n');
      return 1;
    }
  }
  for (const f of names) {
    const abs = join(plan.root, f);
    try {
      mkdirSync(dirname(abs), { recursive: true });
      // 'wx': never replace a file, even one created since the plan was made
      writeFileSync(abs, plan.files[f]!, { flag: 'wx' });
    } catch (e) {
      throw new UsageError(
        `cannot write ${shown(f)}: ${(e as NodeJS.ErrnoException).code === 'EEXIST' ? 'it already exists' : (e as Error).message}`,
      );
    }
  }
  const check = dir === '.' ? 'loopkit check' : `loopkit check ${dir}`;
  const width = Math.max(check.length, 'loopkit rules'.length) + 2;
  const column = (s: string) => s.padEnd(width);
  io.stdout(
    [
      `Created ${shown(CONFIG_FILE)} with preset ${plan.preset} (${plan.why})`,
      ...names.filter((f) => f !== CONFIG_FILE).map((f) => `Created ${shown(f)}`),
      '',
      'Next:',
      `  ${column(check)}verify the skills`,
      `  ${column('loopkit rules')}the rules, and \`loopkit explain <code>\` for one`,
      '',
    ].join('\n'),
  );
  return 0;
}
