/**
 * `loopkit coverage` as text (a table per skill and in total, then every transition no run
 * exercised, with its place) and as JSON. The picture (SVG, HTML) is the graph's, with each
 * transition marked (graph-view.ts, graph.ts).
 */
import type { Edge } from '../graph/graph.js';
import { isHaltBound, percent, type Coverage, type EdgeCoverage, type KindTallies, type Tally } from '../runtime/coverage.js';
import { VERSION } from '../version.js';
import { displayPath } from './paths.js';

/** A run measured: its file or session directory (project-relative), what it is, and how long. */
export interface RunInfo {
  path: string;
  kind: 'trace' | 'session';
  /** steps of a trace, versions of a session */
  steps: number;
}

export interface CoverageReport {
  root: string;
  coverage: Coverage;
  runs: readonly RunInfo[];
  /** the number of skills of the contract */
  skills: number;
}

const KINDS = [
  ['transitions', 'transitions'],
  ['handoffs', 'handoffs'],
  ['halts', 'halt bounds'],
] as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function cell(t: Tally): string {
  const p = percent(t);
  if (p === null) return '–';
  return `${t.exercised}/${t.declared}  ${p.toFixed(1)}%${t.possible > 0 ? `, ${t.possible} more possibly` : ''}`;
}

const place = (root: string, e: Edge) => `${displayPath(root, e.file)}:${e.line}:${e.column}`;

function edgeLine(root: string, c: EdgeCoverage): string {
  const e = c.edge;
  const notes: string[] = [];
  if (e.handoff) notes.push(`handoff ${e.handoff.skill} to ${e.handoff.agent}`);
  if (isHaltBound(e)) {
    const spent = c.peak ? `a run spent at most ${plural(c.peak, 'iteration')} in ${e.from}` : `no iteration in ${e.from} was counted`;
    notes.push(`halt ${e.halt!.reason} after ${e.halt!.after} iterations; ${spent}`);
  }
  return `  ${place(root, e)}: ${e.from} → ${e.to}${notes.length > 0 ? `  (${notes.join('; ')})` : ''}`;
}

export function coverageText(report: CoverageReport): string {
  const { coverage, root } = report;
  const out: string[] = [];
  const steps = (r: RunInfo) => (r.kind === 'trace' ? plural(r.steps, 'step') : plural(r.steps, 'version'));
  out.push(`Contract coverage of ${plural(report.runs.length, 'run')} against the contract of ${plural(report.skills, 'skill')}`);
  for (const r of report.runs) out.push(`  ${displayPath(root, r.path)}  (${steps(r)})`);
  out.push('');
  const rows: [string, ...string[]][] = [['', ...KINDS.map(([, title]) => title)]];
  const row = (name: string, t: KindTallies) => rows.push([name, ...KINDS.map(([k]) => cell(t[k]))]);
  for (const s of coverage.skills) row(s.skill, s);
  if (coverage.skills.length !== 1) row('total', coverage.total);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => Array.from(r[i]!).length)));
  for (const r of rows) out.push(`  ${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('   ')}`.trimEnd());
  const never = coverage.edges.filter((c) => c.times === 0 && !c.possible);
  const possible = coverage.edges.filter((c) => c.possible);
  if (possible.length > 0) {
    out.push('', `Possibly exercised (${possible.length}): a run may have taken these, its state file could not tell`);
    for (const c of possible) out.push(edgeLine(root, c));
  }
  out.push('');
  if (never.length === 0) out.push('Every transition was exercised.');
  else {
    out.push(`Never exercised (${never.length}):`);
    for (const c of never) out.push(edgeLine(root, c));
  }
  const t = coverage.total;
  out.push(
    '',
    `Total: transitions ${cell(t.transitions)} · handoffs ${cell(t.handoffs)} · halt bounds ${cell(t.halts)}`.replace(/ {2}/g, ' '),
  );
  return `${out.join('\n')}\n`;
}

function tallyJson(t: Tally) {
  return { ...t, percent: percent(t) };
}

const talliesJson = (t: KindTallies) => ({
  transitions: tallyJson(t.transitions),
  handoffs: tallyJson(t.handoffs),
  haltBounds: tallyJson(t.halts),
});

export function coverageJson(report: CoverageReport): string {
  const { coverage, root } = report;
  const doc = {
    runs: report.runs.map((r) => ({ path: displayPath(root, r.path), kind: r.kind, steps: r.steps })),
    total: talliesJson(coverage.total),
    skills: coverage.skills.map((s) => ({ skill: s.skill, ...talliesJson(s) })),
    transitions: coverage.edges.map((c) => ({
      from: c.edge.from,
      to: c.edge.to,
      skill: c.edge.skill,
      location: { path: displayPath(root, c.edge.file), line: c.edge.line, column: c.edge.column },
      ...(c.edge.handoff ? { handoff: { skill: c.edge.handoff.skill, agent: c.edge.handoff.agent } } : {}),
      ...(c.edge.halt
        ? { halt: { reason: c.edge.halt.reason, after: c.edge.halt.after, ...(c.peak !== undefined ? { peak: c.peak } : {}) } }
        : {}),
      mark: c.times > 0 ? 'exercised' : c.possible ? 'possible' : 'never',
      times: c.times,
      runs: c.runs,
    })),
    version: VERSION,
    root,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
