/**
 * What a rule's project part reads (RuleMeta.reads), so that a session re-runs only the rules whose
 * inputs an edit changed (engine/session.ts): a body edit of one SKILL.md does not re-run the rules
 * that read only frontmatter, LOOP.md contracts or the graph.
 *
 * - `frontmatter`: the skills' frontmatter, and what follows from it: `name`, `targets`
 * - `body`: the SKILL.md files beyond their frontmatter: `sections`, `declaredStates`, `links`, the
 *   `skillFile` model (its `path` is free: where a skill is never changes without a new read)
 * - `loop`: the LOOP.md contracts (`loop`, `loopReadError`, `legacyHandoffs`)
 * - `graph`: the combined graph (`ctx.graph`)
 * - `references`: the files SKILL.md links to (`references`, `readmeLinks`)
 * - `files`: what is on disk beside the markdown: the skills' `entries` and `scripts`, and the
 *   project's paths, link destinations, `readme`, `problems`, `unchecked`
 * - `agents`: agent files and plugin manifests (`agents`, `manifests`)
 *
 * The configuration, the project's root and its skills' folders are free: a change of any of them
 * reads the project again, and every rule runs. A rule that declares nothing reads everything.
 *
 * In check mode (LOOPKIT_CHECK_READS=1, the tests) a rule sees the model through proxies that
 * throw on a read it did not declare: the run reports it as the rule's crash.
 */
import type { StateGraph } from '../graph/graph.js';
import type { FileModel, Project, Skill } from '../model/types.js';

export type Read = 'frontmatter' | 'body' | 'loop' | 'graph' | 'references' | 'files' | 'agents';

export const READS: readonly Read[] = ['frontmatter', 'body', 'loop', 'graph', 'references', 'files', 'agents'];

/** What each property of a skill is (null: free). */
const SKILL: Record<keyof Skill, Read | null> = {
  name: 'frontmatter',
  targets: 'frontmatter',
  dirName: null,
  dir: null,
  skillFile: null,
  frontmatter: 'frontmatter',
  sections: 'body',
  declaredStates: 'body',
  loop: 'loop',
  loopReadError: 'loop',
  legacyHandoffs: 'loop',
  entries: 'files',
  scripts: 'files',
  links: 'body',
  references: 'references',
  readmeLinks: 'references',
};

/** What each property of the project is (null: free). */
const PROJECT: Record<keyof Project, Read | null> = {
  displayRoot: null,
  root: null,
  config: null,
  configPositions: null,
  configFile: null,
  configWarnings: null,
  skillsDir: null,
  skillsDirs: null,
  presets: null,
  skills: null,
  agents: 'agents',
  manifests: 'agents',
  problems: 'files',
  unchecked: 'files',
  readme: 'files',
  existingPaths: 'files',
  outsidePaths: 'files',
  linkTargets: 'files',
  gitIgnoredTargets: 'files',
  linksForNamedFiles: 'files',
  linksFromProject: 'files',
  pathsOnDisk: 'files',
};

/** Is check mode on (the environment asks for it)? */
export function checkingReads(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.LOOPKIT_CHECK_READS === '1';
}

/**
 * The project and graph as a rule that declared `reads` may see them: a read of anything else
 * throws, naming the rule, what it read and what it should declare.
 */
export function guardedModel(
  code: string,
  reads: readonly Read[],
  project: Project,
  graph: StateGraph,
  undeclared: (what: string, read: Read) => void = (what, read) => {
    throw new Error(`rule ${code} read ${what} without declaring '${read}' in meta.reads`);
  },
): { project: Project; graph: StateGraph } {
  const allowed = new Set(reads);
  const deny = (what: string, read: Read): void => undeclared(what, read);
  const guard = <T extends object>(
    target: T,
    table: Record<string, Read | null>,
    name: string,
    inner?: (key: string, value: unknown) => unknown,
  ): T =>
    new Proxy(target, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver) as unknown;
        if (typeof key !== 'string') return value;
        const read = table[key];
        if (read !== undefined && read !== null && !allowed.has(read)) deny(`${name}.${key}`, read);
        return inner ? inner(key, value) : value;
      },
    });
  const file = (f: FileModel): FileModel =>
    // a skill's file: its path is free (reading `skillFile` itself is a body read)
    new Proxy(f, {
      get(t, key, receiver) {
        if (key !== 'path' && !allowed.has('body')) deny(`skill.skillFile.${String(key)}`, 'body');
        return Reflect.get(t, key, receiver) as unknown;
      },
    });
  const skills = project.skills.map((s) =>
    guard(s, SKILL, 'skill', (key, value) => (key === 'skillFile' ? file(value as FileModel) : value)),
  );
  const guardedProject = guard(project, PROJECT, 'project', (key, value) => (key === 'skills' ? skills : value));
  const guardedGraph = new Proxy(graph, {
    get(t, key, receiver) {
      if (!allowed.has('graph')) deny(`graph.${String(key)}`, 'graph');
      return Reflect.get(t, key, receiver) as unknown;
    },
  });
  return { project: guardedProject, graph: guardedGraph };
}
