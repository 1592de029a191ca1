/**
 * Shareable configs (`extends:` a YAML or JSON file or a package, config/shared.ts): their settings
 * apply where the project's file writes none, before the presets'; their `rules:` are overridden
 * code by code, their `overrides:` come first; `--print-config` shows the result. One that is not
 * found, outside the project, code rather than data, or extends another shareable config is an error
 * at its `extends:` entry (exit 2).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { run, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const skill = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} work. Use when ${name} is asked for.\n---\n\n# ${name}\n\nDo it.\n`;

describe('extends: a shareable config', () => {
  it('a file and a package: settings where the project writes none, rules overridden code by code, overrides first', async () => {
    const root = temps.project({
      'team/loopkit.yaml':
        'extends: agent-skills\nmax_iterations: 7\nskills_dir: team-skills/\nrules:\n  skill-name-not-gerund: error\n  skill-missing-name: off\noverrides:\n  - files: ["skills/**"]\n    rules:\n      skill-name-too-long: off\n      skill-name-vague: error\n',
      'node_modules/@acme/loopkit-config/package.json': '{ "name": "@acme/loopkit-config", "version": "1.0.0", "main": "config.json" }\n',
      'node_modules/@acme/loopkit-config/config.json':
        '{ "halt_reasons": ["stall", "budget", "acme"], "rules": { "skill-missing-name": "warning" } }\n',
      '.loopkit.yaml':
        'extends:\n  - ./team/loopkit.yaml\n  - "@acme/loopkit-config"\nskills_dir: skills/\nrules:\n  skill-name-not-gerund: warning\noverrides:\n  - files: ["skills/alpha/**"]\n    rules:\n      skill-name-vague: info\n',
      'skills/alpha/SKILL.md': skill('alpha'),
    });
    const r = await run(['check', '--print-config', 'skills/alpha/SKILL.md', '.'], { cwd: root });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const printed = JSON.parse(r.stdout) as { settings: Record<string, unknown>; presets: string[]; rules: Record<string, string> };
    expect(printed.settings.max_iterations).toBe(7);
    expect(printed.settings.skills_dir).toEqual(['skills/']);
    expect(printed.settings.halt_reasons).toEqual(['stall', 'budget', 'acme']);
    expect(printed.presets).toEqual(['agent-skills']);
    expect(printed.rules['skill-name-not-gerund']).toBe('warning');
    expect(printed.rules['skill-missing-name']).toBe('warning');
    // the shareable config's override applies, and the project's, after it, wins
    expect(printed.rules['skill-name-too-long']).toBe('off');
    expect(printed.rules['skill-name-vague']).toBe('info');
  });

  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'not found',
      { '.loopkit.yaml': 'extends: ./nowhere.yaml\n' },
      /\.loopkit\.yaml:1:10: shareable config '\.\/nowhere\.yaml' not found/u,
    ],
    [
      'a package not installed',
      { '.loopkit.yaml': 'extends: "@acme/nothing"\n' },
      /\.loopkit\.yaml:1:10: shareable config '@acme\/nothing' not found/u,
    ],
    [
      'outside the project',
      { '.loopkit.yaml': 'extends: ../outside.yaml\n' },
      /shareable config '\.\.\/outside\.yaml' (not found|is outside the project)/u,
    ],
    [
      'code, not data',
      { '.loopkit.yaml': 'extends: ./team.mjs\n', 'team.mjs': 'export default {};\n' },
      /a shareable config is data, never code/u,
    ],
    [
      'a shareable config that extends another',
      { '.loopkit.yaml': 'extends: ./a.yaml\n', 'a.yaml': 'extends: ./b.yaml\n', 'b.yaml': 'max_iterations: 3\n' },
      /shareable config '\.\/a\.yaml' extends '\.\/b\.yaml': a shareable config may extend presets only/u,
    ],
    [
      'its own problem, in its own file',
      { '.loopkit.yaml': 'extends: ./a.yaml\n', 'a.yaml': 'max_iterations: many\n' },
      /a\.yaml:1:17: max_iterations: /u,
    ],
    [
      'a mistyped preset is still a preset',
      { '.loopkit.yaml': 'extends: agent-skill\n' },
      /unknown preset 'agent-skill'; did you mean 'agent-skills'\?/u,
    ],
  ];
  it.each(cases)('%s: exit 2, located', async (_name, files, message) => {
    const root = temps.project({ 'skills/alpha/SKILL.md': skill('alpha'), ...files });
    const r = await run(['check', '.'], { cwd: root });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
