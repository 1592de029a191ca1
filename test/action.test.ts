/**
 * The GitHub Action (action.yml): its inputs reach the step that runs loopkit, and that step
 * (action/run.mjs, run here as the runner runs it) annotates, writes SARIF, fills the job summary
 * and the outputs, and exits with loopkit's exit code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanEnv, ROOT, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const script = readFileSync(join(ROOT, 'action', 'run.mjs'), 'utf8');

describe('action.yml', () => {
  it('is a composite action that sets up Node 20, installs loopkit from its own files and runs the step script', () => {
    expect(action.runs.using).toBe('composite');
    const [node, install, check] = action.runs.steps;
    expect(node!.uses).toMatch(/^actions\/setup-node@v\d+$/u);
    expect(node!.with!['node-version']).toBe('${{ inputs.node-version }}');
    expect(action.inputs['node-version']!.default).toBe('20');
    expect(install!['working-directory']).toBe('${{ github.action_path }}');
    expect(install!.run).toMatch(/^npm ci\b/u);
    expect(check!.id).toBe('check');
    expect(check!.run).toBe('node "$GITHUB_ACTION_PATH/action/run.mjs"');
    for (const s of action.runs.steps.filter((x) => x.run)) expect(s.shell).toBe('bash');
  });

  it('every input reaches the step, and the step reads it; every output is written', () => {
    const env = action.runs.steps[2]!.env!;
    const passed = Object.entries(env).map(([name, value]) => {
      const m = /^\$\{\{ inputs\.([a-z-]+) \}\}$/u.exec(value);
      expect(m, name).not.toBeNull();
      expect(script, `run.mjs reads ${name}`).toContain(`input('${name.replace(/^LOOPKIT_/u, '')}')`);
      return m![1];
    });
    // node-version is used by the setup step itself
    expect([...passed, 'node-version'].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, out] of Object.entries(action.outputs)) {
      expect(out.value).toBe(`\${{ steps.check.outputs.${name} }}`);
      expect(script).toContain(`${name}=`);
    }
    for (const i of Object.values(action.inputs)) expect(i.description.length).toBeGreaterThan(20);
  });
});

/** Run the step as the runner does: inputs as environment variables, in the workspace. */
function step(inputs: Record<string, string>, workspace = ROOT) {
  const dir = temps.dir();
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  const env = cleanEnv({
    ...files,
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_ACTIONS: 'true',
    XDG_CACHE_HOME: join(dir, 'cache'),
    LOOPKIT_CACHE_DIR: '',
  });
  for (const [k, v] of Object.entries(inputs)) env[`LOOPKIT_${k.toUpperCase().replace(/-/gu, '_')}`] = v;
  const r = spawnSync(process.execPath, [join(ROOT, 'action', 'run.mjs')], { cwd: workspace, env, encoding: 'utf8' });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    output: readFileSync(files.GITHUB_OUTPUT, 'utf8'),
    summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
    cache: join(dir, 'cache', 'loopkit'),
  };
}

describe('the step (action/run.mjs)', () => {
  it('annotates every problem, writes SARIF and the job summary, sets the outputs, exits 1 on errors', () => {
    const sarif = join(temps.dir(), 'loopkit.sarif');
    const r = step({ path: 'fixtures/projects/with-errors', 'sarif-file': sarif });
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe('loopkit check fixtures/projects/with-errors');
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations.length).toBe(11);
    expect(annotations[0]).toMatch(
      /^::error file=fixtures\/projects\/with-errors\/\.loopkit\.yaml,line=2,col=5,title=loopkit state-enforced-missing::/u,
    );
    const doc = JSON.parse(readFileSync(sarif, 'utf8')) as { version: string; runs: { results: unknown[] }[] };
    expect(doc.version).toBe('2.1.0');
    expect(doc.runs[0]!.results).toHaveLength(11);
    expect(r.output).toBe(`exit-code=1\nsarif-file=${sarif}\n`);
    expect(r.summary).toMatch(/^### loopkit\n\n```text\n[\s\S]*FAIL {2}8 errors, 3 warnings, 0 info[\s\S]*\n```\n$/u);
    // the checks ran cached (the default): the SARIF and summary runs were read from it
    expect(readdirSync(r.cache).filter((f) => /^[0-9a-f]{16}$/u.test(f))).toHaveLength(1);
  });

  it('a clean project passes; annotations "false" prints the text report; no SARIF unless asked', () => {
    const r = step({ path: 'fixtures/projects/clean', annotations: 'false' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('PASS  0 errors, 0 warnings, 0 info');
    expect(r.output).toBe('exit-code=0\nsarif-file=\n');
  });

  it('preset, max-warnings, baseline and args are passed on', () => {
    expect(step({ path: 'fixtures/projects/unknown-key', 'max-warnings': '0' }).status).toBe(1);
    const preset = step({
      path: 'fixtures/projects/plain-collection',
      preset: 'loop-language',
      args: '--rule skill-missing-rules   --quiet',
    });
    expect(preset.stdout.split('\n')[0]).toBe(
      'loopkit check fixtures/projects/plain-collection --preset loop-language --rule skill-missing-rules --quiet',
    );
    expect(preset.stdout.match(/^::error .*title=loopkit skill-missing-rules::/gmu)).toHaveLength(2);
    expect(preset.status).toBe(1);
    const missing = step({ path: 'fixtures/projects/clean', baseline: 'no-such-baseline.json' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no-such-baseline.json not found');
    expect(missing.output).toBe('exit-code=2\nsarif-file=\n');
  });

  it('a broken configuration is exit 2 and writes no SARIF', () => {
    const sarif = join(temps.dir(), 'x.sarif');
    const r = step({ path: 'fixtures/projects/bad-type', 'sarif-file': sarif });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('max_iterations');
    expect(existsSync(sarif)).toBe(false);
  });
});
