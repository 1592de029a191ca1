/**
 * Where the contract names things: every place a state, a skill, a halt reason or a rule code is
 * written in the project, from the model of the last check (the transitions, the state models, the
 * state-value tables, the handoffs, `.loopkit.yaml`, the README, suppression comments). Navigation,
 * hover, rename and completion read it.
 *
 * Some places are known to the character (a transition's states, a handoff's skill); others only to
 * the token that holds the name (a code span starts at its backtick, a YAML value may be quoted):
 * those are `exact: false`, and `locate` finds the name on its line in the text.
 */
import { CONFIG_FILE } from '../config/errors.js';
import type { SessionCheck } from '../engine/session.js';
import { ALL_AGENTS, type AgentDef } from '../model/agents.js';
import type { Skill } from '../model/types.js';

export type NameKind = 'state' | 'skill' | 'halt' | 'code' | 'agent';

export type Role =
  /** a transition's source or target state */
  | 'from'
  | 'to'
  /** a state in a SKILL.md state model (its first mention there) */
  | 'declared'
  /** a backticked name in SKILL.md, a `handoff`/`halt` in LOOP.md prose */
  | 'mention'
  /** a state-value table row of the Loop State Schema */
  | 'value'
  /** a value or key of `.loopkit.yaml` */
  | 'config'
  /** a skill's frontmatter `name` */
  | 'name'
  /** a transition's `handoff <skill>` or `halt <reason>` */
  | 'directive'
  /** a backticked skill name in the README */
  | 'readme'
  /** a code in a suppression comment */
  | 'suppression';

export interface Occurrence {
  kind: NameKind;
  name: string;
  /** project-relative path */
  file: string;
  /** 1-based line and column where the name starts (for exact: false, where the token that holds it starts) */
  line: number;
  column: number;
  exact: boolean;
  role: Role;
  /** the skill whose file holds it (-1: none) */
  skill: number;
}

export interface ContractIndex {
  /** by file, in document order */
  readonly byFile: ReadonlyMap<string, readonly Occurrence[]>;
  /** by `kind:name`, in the order of their files' paths, then document order */
  readonly byName: ReadonlyMap<string, readonly Occurrence[]>;
  /** every state the project knows: in the graph, a state model, or `.loopkit.yaml` */
  readonly states: ReadonlySet<string>;
  readonly skills: ReadonlyMap<string, Skill>;
  readonly haltReasons: ReadonlySet<string>;
  /** the agents the project defines (model/agents.ts), by name */
  readonly agents: ReadonlyMap<string, AgentDef>;
}

export const key = (kind: NameKind, name: string) => `${kind}:${name}`;

const NAME_CHAR = /[\p{L}\p{M}\p{N}_-]/u;

/**
 * The 1-based column where `name` is written as a whole token on a line, nearest after `column`
 * (the token's start for an inexact place), else the last one before it; null when the line does
 * not hold it.
 */
export function locate(lineText: string, name: string, column: number): number | null {
  let before: number | null = null;
  for (let i = lineText.indexOf(name); i >= 0; i = lineText.indexOf(name, i + 1)) {
    const whole = !NAME_CHAR.test(lineText[i - 1] ?? ' ') && !NAME_CHAR.test(lineText[i + name.length] ?? ' ');
    if (!whole) continue;
    if (i >= column - 1) return i + 1;
    before = i + 1;
  }
  return before;
}

/** The config settings that name a state (besides enforced_states[].name). */
const STATE_SETTINGS = [
  'deskcheck_state',
  'deskcheck_entry_from',
  'deskcheck_feedback_to',
  'deskcheck_forward_to',
  'bug_feedback_qa_state',
  'bug_feedback_acceptance_state',
  'bug_feedback_return_to',
] as const;

const cache = new WeakMap<SessionCheck, ContractIndex>();

/** The index of a check (built once per check); `text` reads a file as the session does (for the README). */
export function contractIndex(check: SessionCheck, text: (path: string) => string | null): ContractIndex {
  let index = cache.get(check);
  if (!index) {
    index = build(check, text);
    cache.set(check, index);
  }
  return index;
}

/**
 * When a skill's candidate is an occurrence: always, or when the project knows its name as a halt
 * reason, a state, or (a backticked name that is no state) a skill.
 */
const enum When {
  Always,
  Halt,
  State,
  SkillNotState,
}

interface Entry {
  o: Occurrence;
  when: When;
}

/**
 * What a skill's own files name, whatever the rest of the project knows: its occurrences and the
 * candidates that are occurrences when the project knows the name, each file's in document order.
 * Kept while the session keeps the skill's model (the same Skill object at the same place), so
 * that an update indexes again only the skills it changed.
 */
interface SkillEntries {
  /** the skill's place in the project, which its occurrences carry (a session makes every model anew when files come or go) */
  i: number;
  byFile: [string, Entry[]][];
}

/** A test that is true for the first occurrence of a kind of name at a place, false for any later one there. */
function firstAtPlace(): (o: Occurrence) => boolean {
  const seen = new Set<string>();
  return (o) => {
    const k = `${o.kind}\u0000${o.file}\u0000${o.line}\u0000${o.column}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  };
}

const skillEntries = new WeakMap<Skill, SkillEntries>();

function entriesOf(skill: Skill, i: number, check: SessionCheck): SkillEntries {
  const kept = skillEntries.get(skill);
  if (kept && kept.i === i) return kept;
  const all: Entry[] = [];
  // the first entry at a place wins (a transition's `handoff` and the prose's mention of it at the same place)
  const first = firstAtPlace();
  const add = (o: Occurrence, when: When = When.Always) => {
    if (first(o)) all.push({ o, when });
  };
  // the skill's own name, where the frontmatter writes it
  const nameEntry = skill.frontmatter?.entries.find((e) => e.key === 'name' && typeof e.value === 'string');
  if (nameEntry)
    add({
      kind: 'skill',
      name: skill.name,
      file: skill.skillFile.path,
      line: nameEntry.line,
      column: nameEntry.column + 5,
      exact: false,
      role: 'name',
      skill: i,
    });
  const transitions = skill.loop?.transitions ?? skill.legacyHandoffs?.transitions ?? [];
  for (const t of transitions) {
    add({ kind: 'state', name: t.from, file: t.file, line: t.line, column: t.fromColumn, exact: true, role: 'from', skill: i });
    add({ kind: 'state', name: t.to, file: t.file, line: t.line, column: t.toColumn, exact: true, role: 'to', skill: i });
    if (t.handoff)
      add({
        kind: 'skill',
        name: t.handoff.skill,
        file: t.file,
        line: t.handoff.line,
        column: t.handoff.skillColumn,
        exact: true,
        role: 'directive',
        skill: i,
      });
    if (t.halt)
      add({
        kind: 'halt',
        name: t.halt.reason,
        file: t.file,
        line: t.halt.line,
        column: t.halt.reasonColumn,
        exact: true,
        role: 'directive',
        skill: i,
      });
  }
  const loop = skill.loop;
  if (loop) {
    const file = loop.file.path;
    for (const h of loop.handoffs) {
      add({ kind: 'skill', name: h.skill, file, line: h.line, column: h.column, exact: true, role: 'mention', skill: i });
      // the agent follows ` to ` after the skill: found in the line from the skill on
      if (h.agent !== ALL_AGENTS)
        add({
          kind: 'agent',
          name: h.agent,
          file,
          line: h.line,
          column: h.column + h.skill.length,
          exact: false,
          role: 'directive',
          skill: i,
        });
    }
    for (const h of loop.halts)
      add({ kind: 'halt', name: h.word, file, line: h.line, column: h.column, exact: true, role: 'mention', skill: i }, When.Halt);
    for (const row of loop.stateSchema?.values ?? []) {
      const name = row.state.text.replace(/`/gu, '').trim();
      add({ kind: 'state', name, file, line: row.state.line, column: row.state.column, exact: false, role: 'value', skill: i }, When.State);
    }
  }
  // backticked names in SKILL.md: the state model's states, other states and skills it names
  const declared = new Set(skill.declaredStates.map((d) => `${d.line}:${d.column}`));
  // (a Skill is made anew when its SKILL.md's outcome changes: these are the ones it was made from)
  for (const c of check.files.markdown.get(skill.skillFile.path)?.facts.skill?.codeSpans ?? []) {
    const at = { name: c.name, file: skill.skillFile.path, line: c.line, column: c.column, exact: false, skill: i };
    const role: Role = declared.has(`${c.line}:${c.column}`) ? 'declared' : 'mention';
    add({ kind: 'state', ...at, role }, When.State);
    add({ kind: 'skill', ...at, role: 'mention' }, When.SkillNotState);
  }
  const byFile = new Map<string, Entry[]>();
  for (const e of all) {
    const list = byFile.get(e.o.file);
    if (list) list.push(e);
    else byFile.set(e.o.file, [e]);
  }
  // document order; a stable sort keeps the order above at one place
  for (const list of byFile.values()) list.sort((a, b) => a.o.line - b.o.line || a.o.column - b.o.column);
  const entries: SkillEntries = { i, byFile: [...byFile] };
  skillEntries.set(skill, entries);
  return entries;
}

function build(check: SessionCheck, text: (path: string) => string | null): ContractIndex {
  const { project, graph, loaded, files } = check;
  const { config } = project;
  const states = new Set<string>(graph.states);
  for (const s of project.skills) for (const d of s.declaredStates) states.add(d.name);
  for (const e of config.enforced_states) states.add(e.name);
  for (const k of STATE_SETTINGS) if (config[k] !== '') states.add(config[k]);
  const skills = new Map<string, Skill>();
  for (const s of project.skills) if (!skills.has(s.name)) skills.set(s.name, s);
  const haltReasons = new Set<string>(config.halt_reasons);
  for (const e of graph.edges) if (e.halt) haltReasons.add(e.halt.reason);
  const holds = (e: Entry): boolean => {
    switch (e.when) {
      case When.Always:
        return true;
      case When.Halt:
        return haltReasons.has(e.o.name);
      case When.State:
        return states.has(e.o.name);
      case When.SkillNotState:
        return !states.has(e.o.name) && skills.has(e.o.name);
    }
  };

  const byFile = new Map<string, Occurrence[]>();
  const touched = new Set<Occurrence[]>();
  project.skills.forEach((skill, i) => {
    for (const [file, entries] of entriesOf(skill, i, check).byFile) {
      let list = byFile.get(file);
      // a file two skills read (none in a project loopkit can check; kept whole all the same)
      if (list) touched.add(list);
      else list = [];
      for (const e of entries) if (holds(e)) list.push(e.o);
      if (list.length > 0) byFile.set(file, list);
    }
  });

  // the places outside the skills' own files (and the suppression comments in them): first at a place wins
  const other: Occurrence[] = [];
  const first = firstAtPlace();
  const add = (o: Occurrence) => {
    if (first(o)) other.push(o);
  };
  const configFile = project.configFile ?? CONFIG_FILE;
  const fromConfig = (kind: NameKind, name: string, path: string) => {
    const pos = loaded.valuePositions.get(path) ?? loaded.positions.get(path);
    if (pos) add({ kind, name, file: configFile, line: pos.line, column: pos.column, exact: false, role: 'config', skill: -1 });
  };
  config.enforced_states.forEach((e, i) => fromConfig('state', e.name, `enforced_states.${i}.name`));
  const agents = new Map<string, AgentDef>();
  for (const a of project.agents) if (!agents.has(a.name)) agents.set(a.name, a);
  config.enforced_states.forEach((e, i) => {
    if (e.agent.trim() !== '') fromConfig('agent', e.agent.trim(), `enforced_states.${i}.agent`);
  });
  // a Claude Code subagent's `name:` (an OpenCode agent is named by its file)
  for (const a of agents.values()) {
    const entry =
      a.loader === 'claude-code' ? a.frontmatter?.entries.find((e) => e.key === 'name' && typeof e.value === 'string') : undefined;
    if (entry)
      add({ kind: 'agent', name: a.name, file: a.file, line: entry.line, column: entry.column + 5, exact: false, role: 'name', skill: -1 });
  }
  for (const k of STATE_SETTINGS) if (config[k] !== '' && loaded.positions.has(k)) fromConfig('state', config[k], k);
  if (loaded.positions.has('halt_reasons')) config.halt_reasons.forEach((r, i) => fromConfig('halt', r, `halt_reasons.${i}`));
  for (const code of Object.keys(config.rules)) {
    const pos = loaded.positions.get(`rules.${code}`);
    if (pos)
      add({ kind: 'code', name: code, file: configFile, line: pos.line, column: pos.column, exact: false, role: 'config', skill: -1 });
  }

  // rule codes in suppression comments
  for (const role of files.roles) {
    if (role.kind === 'script') continue;
    const facts = files.markdown.get(role.path)?.facts;
    for (const c of facts?.file.suppressions ?? []) {
      for (const code of c.codes)
        add({
          kind: 'code',
          name: code,
          file: role.path,
          line: c.line,
          column: c.column,
          exact: false,
          role: 'suppression',
          skill: role.skill,
        });
    }
  }

  // skills named in the README (backticked, as xref-unknown-readme-skill reads them)
  if (project.readme) {
    const readme = text(project.readme.path);
    (readme ?? '').split(/\r?\n/u).forEach((lineText, l) => {
      for (const m of lineText.matchAll(/`\s*([^`\s]+)\s*`/gu)) {
        const name = m[1]!;
        if (!skills.has(name)) continue;
        add({
          kind: 'skill',
          name,
          file: project.readme!.path,
          line: l + 1,
          column: m.index + m[0].indexOf(name) + 1,
          exact: true,
          role: 'readme',
          skill: -1,
        });
      }
    });
  }

  // into each file's list, after the skills' own at a place (a suppression comment in a skill's file)
  for (const o of other) {
    let list = byFile.get(o.file);
    if (!list) byFile.set(o.file, (list = []));
    list.push(o);
    touched.add(list);
  }
  for (const list of touched) list.sort((a, b) => a.line - b.line || a.column - b.column);

  let byName: Map<string, Occurrence[]> | undefined;
  return {
    byFile,
    // built when asked (references, rename, definitions): what an edit's update or a file's symbols do not need
    get byName() {
      if (byName) return byName;
      byName = new Map();
      for (const file of [...byFile.keys()].sort()) {
        for (const o of byFile.get(file)!) {
          const k = key(o.kind, o.name);
          const n = byName.get(k);
          if (n) n.push(o);
          else byName.set(k, [o]);
        }
      }
      return byName;
    },
    states,
    skills,
    haltReasons,
    agents,
  };
}

/** Where an occurrence's name starts in the text of its file (null: the text no longer holds it there). */
export function placeIn(o: Occurrence, lines: readonly string[]): number | null {
  const lineText = lines[o.line - 1];
  if (lineText === undefined) return null;
  if (o.exact && lineText.startsWith(o.name, o.column - 1)) return o.column;
  return locate(lineText, o.name, o.column);
}

/** The occurrence under a 1-based place of a file's text. */
export function occurrenceAt(
  index: ContractIndex,
  file: string,
  lines: readonly string[],
  line: number,
  column: number,
): Occurrence | undefined {
  for (const o of index.byFile.get(file) ?? []) {
    if (o.line !== line) continue;
    const at = placeIn(o, lines);
    if (at !== null && column >= at && column <= at + o.name.length) return { ...o, column: at, exact: true };
  }
  return undefined;
}

/** The word (a name: letters, digits, `_`, `-`) under a 1-based column of a line, with where it starts. */
export function wordAt(lineText: string, column: number): { word: string; column: number } | null {
  let s = column - 1;
  let e = column - 1;
  while (s > 0 && NAME_CHAR.test(lineText[s - 1]!)) s--;
  while (e < lineText.length && NAME_CHAR.test(lineText[e]!)) e++;
  if (s === e) return null;
  return { word: lineText.slice(s, e), column: s + 1 };
}

/**
 * What is under a place: an occurrence of the index, else a word of the text that is a known state,
 * skill or halt reason (prose that mentions it).
 */
export function nameAt(index: ContractIndex, file: string, lines: readonly string[], line: number, column: number): Occurrence | undefined {
  const found = occurrenceAt(index, file, lines, line, column);
  if (found) return found;
  const w = wordAt(lines[line - 1] ?? '', column);
  if (!w) return undefined;
  const kind: NameKind | null = index.states.has(w.word)
    ? 'state'
    : index.skills.has(w.word)
      ? 'skill'
      : index.haltReasons.has(w.word) && /\bhalt\s+$/u.test((lines[line - 1] ?? '').slice(0, w.column - 1))
        ? 'halt'
        : null;
  if (kind === null) return undefined;
  return { kind, name: w.word, file, line, column: w.column, exact: true, role: 'mention', skill: -1 };
}
