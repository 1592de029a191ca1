/**
 * The pictures of the state machine: Mermaid and DOT proven valid by the real parsers (mermaid's own
 * `parse` under a jsdom window; DOT laid out by the WebAssembly Graphviz that draws the SVG), the
 * view of one skill and its neighbours, the styles, the HTML page, and the README picture being the
 * current dogfood graph.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/load.js';
import type { Diagnostic } from '../src/engine/diagnostic.js';
import { lint } from '../src/api/engine.js';
import { graphFromEdges, type Edge } from '../src/graph/graph.js';
import { dotGraph, jsonGraph, mermaidGraph } from '../src/reporters/graph.js';
import { graphView, machineDiagnostics, stateKinds, type GraphView } from '../src/reporters/graph-view.js';
import { htmlPicture, renderDot, svgPicture } from '../src/reporters/picture.js';

const ROOT = join(import.meta.dirname, '..');

type Mermaid = { parse(text: string): Promise<unknown> };
let mermaid: Mermaid;

beforeAll(async () => {
  // mermaid's parser runs its sanitiser (DOMPurify), which needs a DOM: a jsdom window, no browser
  const dom = new JSDOM('<!doctype html><html><body></body></html>');
  Object.assign(globalThis, { window: dom.window, document: dom.window.document });
  mermaid = ((await import('mermaid')) as unknown as { default: Mermaid }).default;
}, 60000);

/**
 * Graphviz must lay the DOT out without an error or a warning — except, for state names that are not
 * ASCII, that it has no width for their characters (it then sizes them as spaces).
 */
async function expectValidDot(dot: string, nonAsciiNames = false) {
  const { instance } = await import('@viz-js/viz');
  const viz = await instance();
  const r = viz.render(dot, { format: 'svg' });
  const errors = r.errors.filter((e) => !(nonAsciiNames && e.level === 'warning' && /width of non-ASCII character/u.test(e.message)));
  expect(errors, dot).toEqual([]);
  expect(r.status).toBe('success');
}

async function expectValidMermaid(text: string) {
  await expect(mermaid.parse(text), text).resolves.toMatchObject({ diagramType: 'stateDiagram' });
}

async function projectView(dir: string, skill?: string): Promise<GraphView> {
  // a project with a .loopkit.yaml is checked as the CLI checks it (its own preset)
  const preset = existsSync(join(dir, '.loopkit.yaml')) ? {} : { preset: 'loop-language' };
  const result = await lint({ root: dir, ...preset });
  return graphView({
    graph: result.graph,
    config: result.project.config,
    diagnostics: machineDiagnostics(result),
    ...(skill !== undefined ? { skill } : {}),
  });
}

/** Every project with a graph: the dogfood project, the examples, the project fixtures, the graph rules' fixtures. */
function graphProjects(): string[] {
  const dirs = ['.', 'examples/loop', 'examples/loop-controller'];
  for (const p of readdirSync(join(ROOT, 'fixtures', 'projects')).sort()) dirs.push(`fixtures/projects/${p}`);
  const rules = join(ROOT, 'fixtures', 'rules');
  for (const code of readdirSync(rules).sort()) {
    if (!/^(graph|sim|constraints|state)-/u.test(code)) continue;
    for (const kind of ['invalid', 'valid']) {
      const base = join(rules, code, kind);
      for (const c of readdirSync(base).sort()) if (statSync(join(base, c)).isDirectory()) dirs.push(`fixtures/rules/${code}/${kind}/${c}`);
    }
  }
  return dirs;
}

let line = 1;
function edge(from: string, to: string, extra: Partial<Edge> = {}): Edge {
  const l = line++;
  return {
    from,
    to,
    arrow: '→',
    file: 'skills/running-a/LOOP.md',
    line: l,
    column: 1,
    fromColumn: 12,
    toColumn: 15 + from.length,
    section: 'State Transition Rule',
    skill: 'running-a',
    ...extra,
  };
}

const config = {
  halt_reasons: ['stall', 'human-gate'],
  enforced_states: [
    { name: 'in-dev', agent: 'developer-agent', description: '' },
    { name: 'shipped', agent: '', description: '' },
  ],
};

/** Names and texts that could break a diagram language: quotes, backslashes, separators, markup, keywords. */
function nastyGraph() {
  line = 1;
  const trigger = (text: string) => ({ trigger: { text, line: 0, column: 1 } });
  return graphFromEdges([
    edge('in-"quoted"', 'in\\back', trigger('a "quoted" \\ trigger; with: colons # and <b>tags</b> & amps')),
    edge('in\\back', 'state', trigger('}; digraph { x -> y }')),
    edge('state', 'end', trigger('classDef x fill:#f00')),
    edge('end', 'in-prüfung', { halt: { reason: 'stall', after: 3, line: 0, column: 1, reasonColumn: 6 } }),
    edge('in-prüfung', 'in-a:b', trigger('-->')),
    edge('in-a:b', 'halted-stall', { handoff: { skill: 'running-b', agent: 'x', line: 0, column: 1, skillColumn: 9 } }),
    edge('in-a:b', 'in_a_b'),
    edge('in_a_b', 'in-a:b'),
    edge('in-dev', 'shipped', trigger('x'.repeat(80))),
    edge('in-dev', 'in-dev'),
  ]);
}

describe('Mermaid and DOT are valid for every graph loopkit draws', () => {
  const projects = graphProjects();
  it('covers the dogfood project, the examples and the graph fixtures', () => {
    expect(projects.length).toBeGreaterThan(60);
  });

  for (const dir of projects) {
    it(dir, async () => {
      let view: GraphView;
      try {
        view = await projectView(join(ROOT, dir));
      } catch (e) {
        // the fixtures of broken configurations have nothing to draw
        expect(e).toBeInstanceOf(ConfigError);
        return;
      }
      await expectValidMermaid(mermaidGraph(view));
      await expectValidDot(dotGraph(view));
      await expectValidDot(dotGraph(view, { legend: true }));
    });
  }

  it('state names and texts that collide with the diagram languages', async () => {
    const g = nastyGraph();
    const problem: Diagnostic = {
      code: 'graph-dead-end',
      severity: 'error',
      message: 'a "problem" </script> <b>',
      help: '',
      file: 'skills/running-a/LOOP.md',
      line: 2,
      column: 1,
      states: ['state', 'in-"quoted"'],
    };
    const view = graphView({ graph: g, config, diagnostics: [problem] });
    const mermaidText = mermaidGraph(view);
    await expectValidMermaid(mermaidText);
    // distinct states keep distinct Mermaid ids
    expect(mermaidText).toContain('state "in-a:b" as s_in_a_b\n');
    expect(mermaidText).toContain('state "in_a_b" as s_in_a_b_\n');
    await expectValidDot(dotGraph(view), true);
    await expectValidDot(dotGraph(view, { legend: true }), true);
    for (const skill of ['running-a']) await expectValidMermaid(mermaidGraph(graphView({ graph: g, config, skill })));
  });

  it('the empty graph', async () => {
    const view = graphView({ graph: graphFromEdges([]), config });
    await expectValidMermaid(mermaidGraph(view));
    await expectValidDot(dotGraph(view));
  });

  it('a broken diagram is rejected by both parsers (the checks are real)', async () => {
    await expect(mermaid.parse('stateDiagram-v2\n  a --> : b -->\n')).rejects.toThrow();
    const { instance } = await import('@viz-js/viz');
    expect((await instance()).render('digraph { a -> ; }', { format: 'svg' }).status).toBe('failure');
  });
});

describe('the view: kinds of states, problems, one skill and its neighbours', () => {
  it('classifies entry, terminal, halted, enforced, dead-end and problem states', async () => {
    const view = await projectView(join(ROOT, 'examples', 'loop'));
    const kinds = Object.fromEntries(view.states.map((s) => [s.name, stateKinds(s)]));
    expect(kinds).toEqual({
      'loop-scoring': ['entry', 'enforced'],
      'loop-iterating': [],
      'halted-human-gate': ['halted'],
      'loop-verifying': [],
      done: ['terminal', 'enforced'],
      'halted-stall': ['halted', 'enforced'],
      'halted-budget': ['halted', 'enforced'],
    });
    const bad = await projectView(join(ROOT, 'fixtures', 'rules', 'graph-dead-end', 'invalid', 'non-terminal-state'));
    const review = bad.states.find((s) => s.name === 'in-review')!;
    expect(stateKinds(review)).toEqual(['dead-end', 'problem']);
    expect(review.problems.map((d) => d.code)).toEqual(['graph-dead-end', 'state-undeclared-in-skill']);
  });

  it('--skill: the skill’s own transitions, and the others’ that enter, leave or hand work to its states', async () => {
    const view = await projectView(ROOT, 'verifying-stories');
    expect(view.skill).toBe('verifying-stories');
    // in-deskcheck → in-qa hands work to verifying-stories (and names it)
    expect(view.edges.map((v) => `${v.edge.from}>${v.edge.to}${v.neighbour ? ' (neighbour)' : ''}`)).toEqual([
      'in-deskcheck>in-qa (neighbour)',
      'in-qa>in-dev',
      'in-qa>in-acceptance',
      'in-qa>halted-ambiguous',
    ]);
    expect(view.states.map((s) => `${s.name}${s.neighbour ? ' (neighbour)' : ''}`)).toEqual([
      'in-acceptance',
      'in-dev',
      'in-deskcheck (neighbour)',
      'in-qa',
      'halted-ambiguous',
    ]);
    // what a state is comes from the whole graph, not from the cut
    const writing = await projectView(ROOT, 'running-tdd-loops');
    expect(writing.states.find((s) => s.name === 'in-dev')!.entry).toBe(false);
    expect(writing.states.find((s) => s.name === 'in-refinement')!.entry).toBe(true);
    expect(writing.states.find((s) => s.name === 'halted-stall')!.terminal).toBe('halted');
  });

  it('styles: Mermaid classes and DOT attributes differ by kind', async () => {
    const view = await projectView(join(ROOT, 'fixtures', 'rules', 'graph-dead-end', 'invalid', 'non-terminal-state'));
    const m = mermaidGraph(view);
    expect(m).toContain('  [*] --> s_in_dev\n');
    expect(m).toContain('  s_done --> [*]\n');
    // a dead end is not an end
    expect(m).not.toContain('s_in_review --> [*]');
    // done is not an enforced state in this fixture, so its name is a problem too (state-invalid-name)
    expect(m).toMatch(/^ {2}class s_done,s_in_review error$/mu);
    const dot = dotGraph(view);
    expect(dot).toMatch(/^ {2}"in-review" \[id="n2", fillcolor="#ffffff", color="#c62828", penwidth=3, style="rounded,filled"/mu);
    expect(dot).toMatch(/^ {2}"done" \[id="n1", peripheries=2, fillcolor="#bbdefb"/mu);
    expect(dot).toContain('  __loopkit_start -> "in-dev";');
    const json = JSON.parse(jsonGraph(view, ['done', 'in-review'])) as { details: { state: string; kinds: string[] }[] };
    expect(json.details.find((d) => d.state === 'in-review')!.kinds).toEqual(['dead-end', 'problem']);
  });
});

describe('SVG and HTML', () => {
  it('the SVG is the same bytes every time, and marks every state with its id', async () => {
    const view = await projectView(ROOT);
    const a = await svgPicture(view);
    const b = await svgPicture(await projectView(ROOT));
    expect(a).toBe(b);
    expect(a.startsWith('<?xml')).toBe(true);
    for (const s of view.states) expect(a).toContain(`<g id="${s.id}" class="node">`);
    await expect(renderDot('digraph { a -> ; }')).rejects.toThrow(/Graphviz could not draw the graph: .*syntax error/u);
  });

  it('the HTML page is self-contained: the SVG inline, the data of every state, no outside resource', async () => {
    const view = await projectView(join(ROOT, 'fixtures', 'rules', 'graph-dead-end', 'invalid', 'handed-off'));
    const html = await htmlPicture(view, { project: 'demo', displayPath: (f) => `demo/${f}`, version: '0.0.0' });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<(?:script|link|img)[^>]+(?:src|href)=/u);
    expect(html).toContain('<svg');
    const data = JSON.parse(/<script type="application\/json" id="loopkit-data">(.*?)<\/script>/su.exec(html)![1]!) as {
      states: { id: string; name: string; problems: { code: string; where: string }[]; out: number[]; in: number[] }[];
    };
    expect(data.states.map((s) => s.name)).toEqual(view.states.map((s) => s.name));
    const review = data.states.find((s) => s.name === 'in-review')!;
    expect(review.problems[0]).toMatchObject({ code: 'graph-dead-end', where: 'demo/skills/running-a/LOOP.md:2:21' });
    for (const s of data.states) expect(html).toContain(`<g id="${s.id}" class="node">`);
  });

  it('clicking a state shows its problems and transitions (the page script, run in jsdom)', async () => {
    const view = await projectView(join(ROOT, 'fixtures', 'rules', 'graph-dead-end', 'invalid', 'handed-off'));
    const html = await htmlPicture(view, { project: 'demo', displayPath: (f) => f, version: '0.0.0' });
    const dom = new JSDOM(html, { runScripts: 'dangerously', url: 'file:///demo.html' });
    const doc = dom.window.document;
    const review = view.states.find((s) => s.name === 'in-review')!;
    doc.getElementById(review.id)!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    const panel = doc.getElementById('details')!;
    expect(panel.querySelector('h2')!.textContent).toBe('in-review');
    expect(panel.textContent).toContain("error: State 'in-review' is a dead end");
    expect(panel.textContent).toContain('None: no transition leaves this state.');
    expect(panel.textContent).toContain('handoff reviewing-b to reviewer-agent');
    expect(panel.textContent).toContain('skills/running-a/LOOP.md:2:1');
    expect(doc.getElementById(review.id)!.classList.contains('selected')).toBe(true);
    dom.window.close();
  });

  it('the page colours each state by the agent that holds it (the handoffs into it), with a legend, and names it in the panel', async () => {
    const dir = join(ROOT, 'fixtures', 'rules', 'handoff-skill-denied', 'invalid', 'opencode-denied');
    const view = await projectView(dir);
    const review = view.states.find((s) => s.name === 'in-review')!;
    expect(review.holders).toEqual(['reviewer']);
    expect(view.states.find((s) => s.name === 'in-dev')!.holders).toBeUndefined();
    const html = await htmlPicture(view, { project: 'demo', displayPath: (f) => f, version: '0.0.0' });
    expect(html).toContain(`#picture g#${review.id}.node ellipse { stroke: #00897b; stroke-width: 3; }`);
    expect(html).toMatch(
      /<h3>Agents<\/h3><ul class="agents"><li><span class="swatch" style="background: #00897b"><\/span> reviewer<\/li><\/ul>/u,
    );
    const dom = new JSDOM(html, { runScripts: 'dangerously', url: 'file:///demo.html' });
    dom.window.document.getElementById(review.id)!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    expect(dom.window.document.getElementById('details')!.textContent).toContain('held by: reviewer');
    dom.window.close();
    // a project without handoffs to agents has no legend
    const plain = await htmlPicture(await projectView(join(ROOT, 'fixtures', 'rules', 'graph-dead-end', 'invalid', 'non-terminal-state')), {
      project: 'demo',
      displayPath: (f) => f,
      version: '0.0.0',
    });
    expect(plain).not.toContain('<h3>Agents</h3>');
  });

  it('the page escapes what it shows: nothing in a state name or message can close the script or add markup', async () => {
    const problem: Diagnostic = {
      code: 'graph-dead-end',
      severity: 'error',
      message: '</script><script>alert(1)</script>',
      help: '',
      file: 'skills/running-a/LOOP.md',
      line: 1,
      column: 1,
      states: ['state'],
    };
    const html = await htmlPicture(graphView({ graph: nastyGraph(), config, diagnostics: [problem] }), {
      project: '<b>x</b>',
      displayPath: (f) => f,
      version: '0.0.0',
    });
    expect(html.match(/<script/gu)).toHaveLength(2);
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('the README picture (docs/graph.svg) is the current dogfood graph (run `npm run graph:readme`)', async () => {
    const committed = readFileSync(join(ROOT, 'docs', 'graph.svg'), 'utf8');
    expect(await svgPicture(await projectView(ROOT))).toBe(committed);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('](docs/graph.svg)');
  });
});
