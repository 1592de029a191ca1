import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfigText } from '../src/config/load.js';

const load = (text: string) => parseConfigText(text, '.loopkit.yaml');

function issuesOf(text: string): string[] {
  try {
    load(text);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).message.split('\n');
  }
  throw new Error('expected a ConfigError');
}

describe('defaults (the configuration reference)', () => {
  it('an empty file, or one with only comments, is all defaults with no warning', () => {
    for (const text of ['', '# nothing here\n', '---\n']) {
      const { config, warnings } = load(text);
      expect(warnings).toEqual([]);
      expect(config).toEqual({
        extends: [],
        plugins: [],
        skills_dir: ['skills/'],
        ignores: [],
        max_iterations: 20,
        standard_verbs: ['trigger', 'handoff', 'halt', 'call', 'wait', 'route', 'escalate', 'resume', 'notify', 'complete'],
        halt_reasons: ['stall', 'ambiguous', 'human-gate', 'unsafe', 'budget'],
        canonical_loop_sections: [
          'Entry Conditions',
          'Loop State Schema',
          'Single Iteration Step',
          'Proof of Progress',
          'State Transition Rule',
          'Halt Conditions',
          'Handoff Target',
        ],
        canonical_skill_sections: ['Description', 'Rules', 'State Model'],
        state_model_aliases: ['State Model', 'The Loop', 'Loop States', 'States'],
        enforced_states: [],
        deskcheck_enabled: false,
        deskcheck_state: '',
        deskcheck_entry_from: '',
        deskcheck_feedback_to: '',
        deskcheck_forward_to: '',
        bug_feedback_enabled: false,
        bug_feedback_qa_state: '',
        bug_feedback_acceptance_state: '',
        bug_feedback_return_to: '',
        rules: {},
        targets: [],
        agents: [],
        overrides: [],
        loop_state_files: [
          { path: 'docs/inception.loop.md', description: 'inception phase tracking' },
          { path: 'docs/iteration-board.loop.md', description: 'iteration governance tracking' },
        ],
      });
    }
  });

  it('a present key replaces the default entirely; an empty value is the empty string or list', () => {
    const { config } = load('standard_verbs:\n  - build\nhalt_reasons:\nskills_dir:\n');
    expect(config.standard_verbs).toEqual(['build']);
    expect(config.halt_reasons).toEqual([]);
    expect(config.skills_dir).toEqual(['']);
  });

  it('ignores: a pattern or a list of them; an empty value is none', () => {
    expect(load('ignores: drafts/\n').config.ignores).toEqual(['drafts/']);
    expect(load('ignores:\n  - drafts/\n  - "!drafts/keep/"\n').config.ignores).toEqual(['drafts/', '!drafts/keep/']);
    expect(load('ignores:\n').config.ignores).toEqual([]);
  });

  it('a number given for a string field is its text', () => {
    expect(load('skills_dir: 5\n').config.skills_dir).toEqual(['5']);
    expect(load('skills_dir: [skills/, plugins/*/skills]\n').config.skills_dir).toEqual(['skills/', 'plugins/*/skills']);
  });

  it('enforced states take name, agent and description', () => {
    const { config } = load('enforced_states:\n  - name: done\n  - name: in-dev\n    agent: developer\n    description: builds\n');
    expect(config.enforced_states).toEqual([
      { name: 'done', agent: '', description: '' },
      { name: 'in-dev', agent: 'developer', description: 'builds' },
    ]);
  });

  it('records where keys are written', () => {
    const { positions } = load('skills_dir: x\nenforced_states:\n  - name: done\n');
    expect(positions.get('skills_dir')).toEqual({ line: 1, column: 1 });
    expect(positions.get('enforced_states.0.name')).toEqual({ line: 3, column: 5 });
  });
});

describe('errors are located and say what was expected', () => {
  it('invalid YAML', () => {
    expect(issuesOf('skills_dir: [a\n')[0]).toMatch(/^\.loopkit\.yaml:\d+:\d+: invalid YAML: /);
  });

  it('duplicate keys', () => {
    expect(issuesOf('max_iterations: 1\nmax_iterations: 2\n')[0]).toMatch(/^\.loopkit\.yaml:2:1: invalid YAML: .*unique/i);
  });

  it('a top level that is not a mapping', () => {
    expect(issuesOf('- a\n- b\n')).toEqual(['.loopkit.yaml:1:1: expected a mapping of settings at the top level']);
  });

  it.each([
    ['max_iterations: -1\n', '.loopkit.yaml:1:17: max_iterations: expected a whole number from 0 to 4294967295, got -1'],
    ['max_iterations: 1.5\n', '.loopkit.yaml:1:17: max_iterations: expected a whole number from 0 to 4294967295, got 1.5'],
    ['max_iterations: "20"\n', ".loopkit.yaml:1:17: max_iterations: expected a whole number from 0 to 4294967295, got '20'"],
    ['max_iterations: 4294967296\n', '.loopkit.yaml:1:17: max_iterations: expected a whole number from 0 to 4294967295, got 4294967296'],
    ['deskcheck_enabled: yes\n', ".loopkit.yaml:1:20: deskcheck_enabled: expected true or false, got 'yes'"],
    ['standard_verbs: run\n', '.loopkit.yaml:1:17: standard_verbs: expected a list of strings'],
    ['enforced_states:\n  - agent: x\n', '.loopkit.yaml:2:5: enforced_states.0.name: expected a state name (string)'],
    ['rules:\n  sim-error: loud\n', '.loopkit.yaml:2:14: rules.sim-error: expected one of off, info, warning, error'],
    ['ignores: {drafts: true}\n', '.loopkit.yaml:1:10: ignores: expected a pattern or a list of patterns'],
    ['ignores:\n  - drafts/\n  - 3\n', '.loopkit.yaml:3:5: ignores.1: expected a pattern (string)'],
    ['ignores:\n  - drafts/\n  - ""\n', '.loopkit.yaml:3:5: ignores.1: must not be empty'],
    [
      "ignores: ['../shared/']\n",
      ".loopkit.yaml:1:11: ignores.0: '../shared/' reaches outside the project ('..'); write a pattern relative to the project root",
    ],
    [
      "ignores: 'C:/skills/drafts'\n",
      ".loopkit.yaml:1:10: ignores.0: 'C:/skills/drafts' is an absolute path; write a pattern relative to the project root",
    ],
  ])('%j', (text, message) => {
    expect(issuesOf(text)).toEqual([message]);
  });

  it('desk check / bug feedback enabled with empty fields: every empty field is reported', () => {
    const lines = issuesOf('bug_feedback_enabled: true\nbug_feedback_qa_state: in-qa\nbug_feedback_return_to: ""\n');
    expect(lines).toContain('.loopkit.yaml:3:25: bug_feedback_return_to: must not be empty when bug_feedback_enabled is true');
    expect(lines.some((l) => l.includes('bug_feedback_acceptance_state: must not be empty'))).toBe(true);
  });

  it('several problems are all reported, in file order', () => {
    const lines = issuesOf('max_iterations: x\nhalt_reasons: 3\n');
    expect(lines.map((l) => l.split(':').slice(0, 3).join(':'))).toEqual(['.loopkit.yaml:1:17', '.loopkit.yaml:2:15']);
  });
});

describe('unknown keys', () => {
  it('warn with the position and the closest known key', () => {
    const { warnings } = load('skills_dir: skills/\nmax_iteration: 5\n');
    expect(warnings).toEqual([
      {
        code: 'config-unknown-key',
        message: "Unknown key 'max_iteration' in .loopkit.yaml; did you mean 'max_iterations'?",
        help: "Rename 'max_iteration' to 'max_iterations', or remove it. Unknown keys are ignored.",
        line: 2,
        column: 1,
      },
    ]);
  });

  it('without a close match, list the known keys', () => {
    const { warnings } = load('colour: red\n');
    expect(warnings[0]!.help).toMatch(/^Remove 'colour'\. Known keys: extends, plugins, skills_dir, /);
  });
});
