/**
 * Plugins (`.loopkit.yaml` `plugins:`, api/plugins.ts): a team's rules run with the core rules and
 * take part in what a core rule does — severities, overrides, suppression comments, `--rule`,
 * `rules`, `explain`, `--fix`, worker threads, the cache — and a plugin that cannot be loaded is a
 * located configuration error (exit 2) naming its file, a throw inside a check an `internal-error`
 * that leaves the rest of the run whole. The MCP server never runs a plugin. The rule tester
 * (`loopkit/testing`) is held here too; the example plugin's own tests run from its package in
 * test/package.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { RuleTester } from '../src/testing.js';
import { defineRule } from '../src/index.js';
import { BIN, cleanEnv, noStack, run, spawnCli, Temps } from './helpers/cli.js';
import { LspClient } from './helpers/lsp.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

const skill = (name: string, body = '') =>
  `---\nname: ${name}\ndescription: Does ${name} work. Use when ${name} is asked for.\n---\n\n# ${name}\n\nDo it.\n${body}`;

/** A plugin with a file part (and a fix), a project part, and a rule whose check throws. */
const ACME = `
export default {
  name: 'acme',
  rules: {
    'no-todo': {
      meta: {
        description: 'no TODO is left in a SKILL.md',
        defaultSeverity: 'error',
        docs: 'https://example.com/acme/no-todo',
        messages: { todo: { message: '{word} left in the skill', help: 'Finish it.' } },
      },
      file: {
        kinds: ['skill'],
        check(ctx) {
          const i = ctx.file.text.indexOf('TODO');
          if (i < 0) return;
          const line = ctx.file.text.slice(0, i).split('\\n').length;
          ctx.report({ messageId: 'todo', data: { word: 'TODO' }, at: { file: ctx.file.path, line, column: 1 } });
        },
      },
      fix: {
        kinds: ['skill'],
        fix(ctx) {
          const i = ctx.file.text.indexOf('TODO');
          return i < 0 ? [] : [{ start: i, end: i + 4, text: 'DONE' }];
        },
      },
    },
    'max-skills': {
      meta: { description: 'a project holds at most one skill', scope: 'project', messages: { many: { message: '{n} skills' } } },
      check(ctx) {
        if (ctx.project.skills.length > 1)
          ctx.report({ messageId: 'many', data: { n: ctx.project.skills.length }, at: { file: ctx.project.skills[1].skillFile.path, line: 1, column: 1 } });
      },
    },
    crash: {
      meta: { description: 'throws', messages: { x: { message: 'x' } } },
      check() {
        throw new Error('kaput');
      },
    },
  },
};
`;

function acmeProject(config = 'plugins:\n  - ./rules/acme.mjs\n', extra: Record<string, string> = {}): string {
  return temps.project({
    '.loopkit.yaml': `extends: agent-skills\n${config}`,
    'rules/acme.mjs': ACME,
    'skills/alpha/SKILL.md': skill('alpha', '\nTODO: the last step\n'),
    'skills/beta/SKILL.md': skill('beta'),
    ...extra,
  });
}

interface JsonReport {
  diagnostics: {
    code: string;
    severity: string;
    message: string;
    help: string;
    location: { path: string; line: number | null; column: number | null };
  }[];
}

async function findings(root: string, ...args: string[]): Promise<{ status: number | null; list: string[]; report: JsonReport }> {
  const r = await run(['check', '--json', '--no-cache', ...args, '.'], { cwd: root });
  expect(r.stderr).toBe('');
  const report = JSON.parse(r.stdout) as JsonReport;
  const list = report.diagnostics.map(
    (d) =>
      `${d.location.path}${d.location.line === null ? '' : `:${d.location.line}:${d.location.column}`} ${d.severity.toLowerCase()} ${d.code} ${d.message}`,
  );
  return { status: r.status, list, report };
}

describe('a plugin named by path', () => {
  it('runs its rules with the core rules: file part, project part, severities; a throwing check is an internal-error, the rest of the run whole', async () => {
    const root = acmeProject();
    const { status, list, report } = await findings(root);
    expect(list).toEqual([
      'skills error internal-error Rule acme/crash crashed: kaput',
      'skills/alpha/SKILL.md:10:1 error acme/no-todo TODO left in the skill',
      'skills/beta/SKILL.md:1:1 warning acme/max-skills 2 skills',
    ]);
    expect(report.diagnostics[0]!.help).toMatch(/bug in the plugin acme/u);
    expect(report.diagnostics[1]!.help).toBe('Finish it.');
    expect(status).toBe(1);
  });

  it('rules:, overrides:, suppression comments and --rule take its codes; a mistyped code is a located error with a suggestion', async () => {
    const root = acmeProject(
      'plugins: ./rules/acme.mjs\nrules:\n  acme/crash: off\n  acme/max-skills: error\noverrides:\n  - files: ["skills/alpha/**"]\n    rules:\n      acme/no-todo: warning\n',
      { 'skills/beta/SKILL.md': skill('beta', '\n<!-- loopkit-disable-next-line acme/no-todo -- kept on purpose -->\nTODO here\n') },
    );
    expect((await findings(root)).list).toEqual([
      'skills/alpha/SKILL.md:10:1 warning acme/no-todo TODO left in the skill',
      'skills/beta/SKILL.md:1:1 error acme/max-skills 2 skills',
    ]);
    expect((await findings(root, '--rule', 'acme/max-skills')).list).toEqual(['skills/beta/SKILL.md:1:1 error acme/max-skills 2 skills']);
    writeFileSync(join(root, '.loopkit.yaml'), 'extends: agent-skills\nplugins: ./rules/acme.mjs\nrules:\n  acme/no-tod: off\n');
    const typo = await run(['check', '.'], { cwd: root });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain(".loopkit.yaml:4:3: rules.acme/no-tod: unknown rule 'acme/no-tod'; did you mean 'acme/no-todo'?");
  });

  it('--fix repairs with its fix part', async () => {
    const root = acmeProject('plugins: ./rules/acme.mjs\nrules:\n  acme/crash: off\n');
    const r = await run(['check', '--fix', '--no-cache', '.'], { cwd: root });
    expect(r.stderr).toMatch(/fixed 1 problem/u);
    expect(readFileSync(join(root, 'skills/alpha/SKILL.md'), 'utf8')).toContain('DONE: the last step');
  });

  it('rules and explain list and show its rules, with the page its plugin names', async () => {
    const root = acmeProject();
    const json = await run(['rules', '--json', '--project', root]);
    const listed = (JSON.parse(json.stdout) as { code: string; plugin?: string; docs: string | null }[]).filter((r) => r.plugin === 'acme');
    expect(listed.map((r) => [r.code, r.docs])).toEqual([
      ['acme/crash', null],
      ['acme/max-skills', null],
      ['acme/no-todo', 'https://example.com/acme/no-todo'],
    ]);
    const text = await run(['rules'], { cwd: root });
    expect(text.stdout).toMatch(/^acme\/no-todo +error +error +definite +plugin +fix +no TODO is left in a SKILL\.md$/mu);
    const explain = await run(['explain', 'acme/no-todo', '--no-color'], { cwd: root });
    expect(explain.status).toBe(0);
    expect(explain.stdout).toContain('no TODO is left in a SKILL.md');
    expect(explain.stdout).toContain('https://example.com/acme/no-todo');
    expect((await run(['explain', 'acme/no-todo'])).stderr).toMatch(/unknown rule 'acme\/no-todo'/u);
  });

  it('runs on worker threads too (the built program, two threads)', () => {
    const root = acmeProject('plugins: ./rules/acme.mjs\nrules:\n  acme/crash: off\n  acme/max-skills: off\n');
    const r = spawnCli(['check', '--no-cache', '--concurrency', '2', '--format', 'compact', '.'], { cwd: root });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('skills/alpha/SKILL.md: line 10, col 1, Error - TODO left in the skill (acme/no-todo)');
    expect(r.status).toBe(1);
  });

  it('the cache is kept for the plugin as it was: a changed plugin is run again, not answered from the cache', async () => {
    const root = acmeProject('plugins: ./rules/acme.mjs\nrules:\n  acme/crash: off\n  acme/max-skills: off\n');
    const cacheDir = temps.dir('loopkit-plugin-cache-');
    const env = { XDG_CACHE_HOME: cacheDir };
    // each run a process of its own, as users run it
    const first = spawnCli(['check', '--format', 'compact', '.'], { cwd: root, env });
    expect(first.stdout).toContain('TODO left in the skill (acme/no-todo)');
    // the same rule now looks for FIXME: a cache reused across plugin versions would still report the TODO
    writeFileSync(join(root, 'rules/acme.mjs'), ACME.replace("indexOf('TODO');\n          if", "indexOf('FIXME');\n          if"));
    const second = spawnCli(['check', '--format', 'compact', '.'], { cwd: root, env });
    expect(second.stdout).not.toContain('acme/no-todo');
    expect(second.status).toBe(0);
  });
});

describe('a plugin that cannot be loaded is a located configuration error (exit 2) naming its file', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    [
      'not found',
      { '.loopkit.yaml': 'plugins:\n  - ./rules/missing.mjs\n' },
      /\.loopkit\.yaml:2:5: plugin '\.\/rules\/missing\.mjs' not found: no file rules\/missing\.mjs$/mu,
    ],
    [
      'a package that is not installed',
      { '.loopkit.yaml': 'plugins: loopkit-plugin-nowhere\n' },
      /\.loopkit\.yaml:1:10: plugin 'loopkit-plugin-nowhere' not found: no package of that name is installed/mu,
    ],
    [
      'throws while it loads',
      { '.loopkit.yaml': 'plugins: [./p.mjs]\n', 'p.mjs': 'const a = 1;\nthrow new Error("no config for " + a);\n' },
      /\.loopkit\.yaml:1:11: plugin '\.\/p\.mjs' failed to load: no config for 1 \(at p\.mjs:2:7\)$/mu,
    ],
    [
      'does not parse',
      { '.loopkit.yaml': 'plugins: ./p.mjs\n', 'p.mjs': 'export default {\n' },
      /\.loopkit\.yaml:1:10: plugin '\.\/p\.mjs' failed to load: Unexpected end of input/mu,
    ],
    [
      'exports no rules',
      { '.loopkit.yaml': 'plugins: ./p.mjs\n', 'p.mjs': 'export default { name: "p" };\n' },
      /\.loopkit\.yaml:1:10: plugin '\.\/p\.mjs' \(p\.mjs\): its rules must be an object/mu,
    ],
    [
      'a rule without a check',
      {
        '.loopkit.yaml': 'plugins: ./p.mjs\n',
        'p.mjs': 'export default { name: "p", rules: { r: { meta: { description: "d", messages: { m: { message: "m" } } } } } };\n',
      },
      /\.loopkit\.yaml:1:10: plugin '\.\/p\.mjs' \(p\.mjs\): rule 'r': needs a check/mu,
    ],
    [
      'two plugins of one name',
      {
        '.loopkit.yaml': 'plugins:\n  - ./a.mjs\n  - ./b.mjs\n',
        'a.mjs': 'export default { name: "same", rules: {} };\n',
        'b.mjs': 'export default { name: "same", rules: {} };\n',
      },
      /\.loopkit\.yaml:3:5: plugin '\.\/b\.mjs' is named 'same', as '\.\/a\.mjs' is/mu,
    ],
  ];
  it.each(cases)('%s', (_name, files, message) => {
    const root = temps.project({ 'skills/alpha/SKILL.md': skill('alpha'), ...files });
    // the built program, as users run it: Node's own module loader reads the plugin
    for (const args of [['check', '.'], ['rules']]) {
      const r = spawnCli(args, { cwd: root });
      expect(r.status, args[0]).toBe(2);
      expect(r.stderr, args[0]).toMatch(message);
      noStack(r);
    }
  });

  it.skipIf(Boolean((process.features as { typescript?: unknown }).typescript))(
    'a TypeScript plugin on a Node that cannot load one says to compile it',
    () => {
      const root = temps.project({
        'skills/alpha/SKILL.md': skill('alpha'),
        '.loopkit.yaml': 'plugins: ./p.ts\n',
        'p.ts': 'export default { name: "p", rules: {} } as const;\n',
      });
      const r = spawnCli(['check', '.'], { cwd: root });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/plugin '\.\/p\.ts' \(p\.ts\) cannot be loaded by Node [\d.]+ as it is: compile it to JavaScript/u);
    },
  );
});

describe('the servers', () => {
  it('the language server shows a plugin rule as check reports it', async () => {
    const root = acmeProject('plugins: ./rules/acme.mjs\nrules:\n  acme/crash: off\n');
    const client = await LspClient.start([root]);
    try {
      await client.settled();
      const alpha = client.of(join(root, 'skills', 'alpha', 'SKILL.md'));
      expect(alpha.map((d) => [d.code, d.range.start.line + 1, d.message])).toEqual([
        ['acme/no-todo', 10, 'TODO left in the skill\nFinish it.'],
      ]);
    } finally {
      await client.stop();
    }
  }, 120_000);

  it('the language server shows a plugin that cannot be loaded in .loopkit.yaml, and loads it once the configuration is mended', async () => {
    const root = acmeProject('plugins:\n  - ./rules/missing.mjs\nrules:\n  acme/crash: off\n');
    // the server's own watch of the project sees the configuration mended on disk
    const client = await LspClient.start([root], { watches: false });
    try {
      await client.settled();
      const config = client.of(join(root, '.loopkit.yaml'));
      expect(config.map((d) => [d.range.start.line + 1, d.message])).toEqual([
        [3, "plugin './rules/missing.mjs' not found: no file rules/missing.mjs"],
      ]);
      writeFileSync(join(root, '.loopkit.yaml'), 'extends: agent-skills\nplugins:\n  - ./rules/acme.mjs\nrules:\n  acme/crash: off\n');
      await client.until(
        () => client.of(join(root, 'skills', 'alpha', 'SKILL.md')).some((d) => d.code === 'acme/no-todo'),
        'the plugin rule',
      );
      await client.until(() => client.of(join(root, '.loopkit.yaml')).length === 0, 'no problem left in .loopkit.yaml');
    } finally {
      await client.stop();
    }
  }, 120_000);

  it('the MCP server never runs a plugin: it checks with the core rules', async () => {
    const root = acmeProject('plugins: ./rules/acme.mjs\n', {
      'rules/acme.mjs': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(join('MARKER'))}, 'ran');\n${ACME}`,
    });
    const client = new Client({ name: 'plugin-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--project', root],
        env: cleanEnv(),
        cwd: root,
        stderr: 'pipe',
      }),
    );
    try {
      const r = (await client.callTool({ name: 'check', arguments: {} })) as { structuredContent?: { diagnostics: { code: string }[] } };
      const codes = (r.structuredContent?.diagnostics ?? []).map((d) => d.code);
      expect(codes.filter((c) => c.includes('/') || c === 'internal-error')).toEqual([]);
      expect(existsSync(join(root, 'MARKER'))).toBe(false);
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('the rule tester (loopkit/testing)', () => {
  const rule = defineRule({
    meta: {
      description: 'skills say please',
      defaultSeverity: 'warning',
      messages: { rude: { message: "Skill '{skill}' does not say please" } },
    },
    check(ctx) {
      for (const s of ctx.project.skills)
        if (!s.skillFile.path.includes('polite'))
          ctx.report({ messageId: 'rude', data: { skill: s.name }, at: { file: s.skillFile.path, line: 1, column: 1 } });
    },
  });

  // the cases pass: registered with vitest's describe and it
  new RuleTester({ describe: describe as never, it: it as never }).run('manners/say-please', rule, {
    valid: [{ files: { 'skills/polite/SKILL.md': skill('polite') } }],
    invalid: [
      {
        files: { 'skills/rude/SKILL.md': skill('rude') },
        errors: [{ file: 'skills/rude/SKILL.md', line: 1, column: 1, severity: 'warning', message: "Skill 'rude' does not say please" }],
      },
      {
        name: 'a RegExp message, the severity the project sets',
        files: { '.loopkit.yaml': 'rules:\n  manners/say-please: error\n', 'skills/rude/SKILL.md': skill('rude') },
        errors: [{ file: 'skills/rude/SKILL.md', line: 1, column: 1, severity: 'error', message: /say please/u }],
      },
    ],
  });

  /** Run one case through a tester whose `it` collects the test, and return what it throws (undefined: it passed). */
  async function outcome(cases: Parameters<RuleTester['run']>[2]): Promise<unknown> {
    const tests: (() => unknown)[] = [];
    new RuleTester({ describe: (_n, fn) => fn(), it: (_n, fn) => tests.push(fn) }).run('manners/say-please', rule, cases);
    for (const t of tests) {
      try {
        await t();
      } catch (e) {
        return e;
      }
    }
    return undefined;
  }

  const rude = { 'skills/rude/SKILL.md': skill('rude') };
  const right = {
    file: 'skills/rude/SKILL.md',
    line: 1,
    column: 1,
    severity: 'warning' as const,
    message: "Skill 'rude' does not say please",
  };
  it('fails a case whose line, column, severity, message or count is not what the rule reports, or a valid case it reports in', async () => {
    expect(await outcome({ valid: [], invalid: [{ files: rude, errors: [right] }] })).toBeUndefined();
    for (const wrong of [{ line: 2 }, { column: 3 }, { severity: 'error' as const }, { message: 'Skill rude' }, { message: /impolite/u }]) {
      expect(
        await outcome({ valid: [], invalid: [{ files: rude, errors: [{ ...right, ...wrong }] }] }),
        JSON.stringify(wrong),
      ).toBeInstanceOf(Error);
    }
    expect(await outcome({ valid: [], invalid: [{ files: rude, errors: [right, right] }] })).toBeInstanceOf(Error);
    expect(await outcome({ valid: [{ files: rude }], invalid: [] })).toBeInstanceOf(Error);
  });

  it('checks what --fix makes of the files', async () => {
    const fixing = defineRule({
      meta: { description: 'no shouting', messages: { loud: { message: 'LOUD' } } },
      file: {
        kinds: ['skill'],
        check(ctx) {
          if (ctx.file.text.includes('LOUD')) ctx.report({ messageId: 'loud', at: { file: ctx.file.path, line: 1, column: 1 } });
        },
      },
      fix: {
        kinds: ['skill'],
        fix: (ctx) =>
          ctx.file.text.includes('LOUD')
            ? [{ start: ctx.file.text.indexOf('LOUD'), end: ctx.file.text.indexOf('LOUD') + 4, text: 'quiet' }]
            : [],
      },
    });
    const files = { 'skills/a/SKILL.md': skill('a', 'LOUD\n') };
    const error = { file: 'skills/a/SKILL.md', line: 1, column: 1, message: 'LOUD' };
    const tests: (() => unknown)[] = [];
    const tester = new RuleTester({ describe: (_n, fn) => fn(), it: (_n, fn) => tests.push(fn) });
    tester.run('style/no-shouting', fixing, {
      valid: [],
      invalid: [{ files, errors: [error], output: { 'skills/a/SKILL.md': skill('a', 'quiet\n') } }],
    });
    tester.run('style/no-shouting', fixing, {
      valid: [],
      invalid: [{ files, errors: [error], output: { 'skills/a/SKILL.md': skill('a', 'LOUD\n') } }],
    });
    await expect(Promise.resolve(tests[0]!())).resolves.toBeUndefined();
    await expect(Promise.resolve(tests[1]!())).rejects.toThrow(/fix changes/u);
  });

  it('refuses a code that is not <plugin>/<rule>, and a rule that is not well-formed', () => {
    expect(() =>
      new RuleTester({ describe: describe as never, it: it as never }).run('say-please', rule, { valid: [], invalid: [] }),
    ).toThrow(/not a plugin's code/u);
    expect(() =>
      new RuleTester({ describe: describe as never, it: it as never }).run(
        'm/r',
        { meta: { description: 'd', messages: {} }, check() {} } as never,
        { valid: [], invalid: [] },
      ),
    ).toThrow(/meta\.messages must name at least one message/u);
  });
});
