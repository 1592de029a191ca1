/**
 * What `loopkit lsp` publishes for a project equals what `loopkit check --json` reports for it —
 * file, place, range, severity, code, message, hint, witness path — on every fixture project and
 * example, and on one invalid case of every rule. A broken `.loopkit.yaml` shows in that file, at
 * the places `check` names.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECTS, ROOT, run, Temps } from './helpers/cli.js';
import { RULE_FIXTURES } from './helpers/fixtures.js';
import { comparable, LspClient, published, rel, type Shown } from './helpers/lsp.js';

interface JsonDiagnostic {
  severity: 'Error' | 'Warning' | 'Info';
  code: string;
  message: string;
  help: string;
  location: { path: string; line: number | null; column: number | null; endLine?: number; endColumn?: number | null };
  related?: { message: string; location: { path: string; line: number | null; column: number | null } }[];
}

/** `loopkit check --json` of a project, run in its directory: the report's diagnostics as the editor would place them. */
async function checked(root: string): Promise<{ status: number | null; shown: Shown[]; stderr: string }> {
  const r = await run(['check', '--json', '.'], { cwd: root });
  if (r.status === 2) return { status: 2, shown: [], stderr: r.stderr };
  const report = JSON.parse(r.stdout) as { diagnostics: JsonDiagnostic[] };
  const shown = report.diagnostics.map((d): Shown => {
    const s: Shown = {
      path: d.location.path,
      line: d.location.line ?? 1,
      column: d.location.line === null ? 1 : (d.location.column ?? 1),
      severity: d.severity,
      code: d.code,
      message: d.help === '' ? d.message : `${d.message}\n${d.help}`,
    };
    if (d.location.endLine !== undefined) s.end = [d.location.endLine, d.location.endColumn ?? d.location.column ?? 1];
    if (d.related)
      s.related = d.related.map((x) => ({
        message: x.message,
        path: x.location.path,
        line: x.location.line ?? 1,
        column: x.location.line === null ? 1 : (x.location.column ?? 1),
      }));
    return s;
  });
  return { status: r.status, shown, stderr: r.stderr };
}

const dirs = (p: string) =>
  readdirSync(p)
    .filter((n) => statSync(join(p, n)).isDirectory())
    .sort();

const clients: LspClient[] = [];
const temps = new Temps();
afterAll(async () => {
  for (const c of clients.splice(0)) await c.stop();
  temps.cleanup();
});

// the examples that are projects (examples/plugin is a plugin's package, test/plugins.test.ts)
const examples = dirs(join(ROOT, 'examples'))
  .map((d) => join(ROOT, 'examples', d))
  .filter((d) => existsSync(join(d, '.loopkit.yaml')));
const projects = [...dirs(PROJECTS).map((d) => join(PROJECTS, d)), ...examples];

describe('the language server publishes what check reports', () => {
  it.each(projects.map((p) => [rel(ROOT, p), p]))('%s', async (_name, root) => {
    const want = await checked(root);
    const client = await LspClient.start([root]);
    clients.push(client);
    await client.settled();
    const got = published(client, root);
    if (want.status === 2) {
      // a broken configuration: each issue check prints (`.loopkit.yaml:line:col: field: detail`) in that file
      const issues = [...want.stderr.matchAll(/\.loopkit\.yaml:(\d+):(\d+): (.*)$/gmu)].map((m) => ({
        line: Number(m[1]),
        column: Number(m[2]),
        message: m[3]!,
      }));
      expect(issues.length).toBeGreaterThan(0);
      expect(got.map((g) => ({ path: g.path, line: g.line, column: g.column, message: g.message }))).toEqual(
        issues.map((i) => ({ path: '.loopkit.yaml', ...i })),
      );
      expect(got.every((g) => g.severity === 'Error')).toBe(true);
    } else {
      expect(comparable(got)).toEqual(comparable(want.shown));
    }
    await client.stop();
  });

  it('with --cache, a restarted server reads its results from the cache and publishes the same', async () => {
    // under strict, whose skill-unknown-frontmatter-key reports the `phase` key planted on below
    const root = temps.copy('seed-skills');
    writeFileSync(join(root, '.loopkit.yaml'), 'extends: strict\n');
    const cache = join(temps.dir('loopkit-lsp-cache-'), 'cache.json');
    const once = async () => {
      const client = await LspClient.start([root], { args: ['--cache', '--cache-location', cache] });
      clients.push(client);
      await client.settled();
      const got = comparable(published(client, root));
      await client.stop();
      return got;
    };
    const first = await once();
    expect(existsSync(cache)).toBe(true);
    expect(first.length).toBeGreaterThan(0);
    expect(await once()).toEqual(first);
    expect(first).toEqual(comparable((await checked(root)).shown));
    // proof the restarted server read the cache: a fact changed in the cached entry of an unchanged
    // file (its content hash kept) is what it publishes
    const shards = readdirSync(dirname(cache)).filter((f) => f.startsWith('cache.json.s'));
    const planted = shards.filter((f) => {
      const text = readFileSync(join(dirname(cache), f), 'utf8');
      if (!text.includes('"key":"phase"')) return false;
      writeFileSync(join(dirname(cache), f), text.replaceAll('"key":"phase"', '"key":"phase-from-the-cache"'));
      return true;
    });
    expect(planted.length).toBe(1);
    const messages = (await once()).map((d) => JSON.stringify(d));
    expect(messages.filter((m) => m.includes("Unknown frontmatter key 'phase-from-the-cache'"))).toHaveLength(1);
    expect(messages.filter((m) => m.includes("Unknown frontmatter key 'phase'"))).toHaveLength(0);
  });

  it('one invalid case of every rule, as workspace folders of one server', async () => {
    const cases = dirs(RULE_FIXTURES)
      .map((code) => join(RULE_FIXTURES, code, 'invalid'))
      .filter((d) => existsSync(d))
      .map((d) => join(d, dirs(d)[0]!));
    const client = await LspClient.start(cases);
    clients.push(client);
    await client.settled();
    let compared = 0;
    for (const root of cases) {
      const want = await checked(root);
      if (want.status === 2) continue;
      const got = published(client, root);
      expect(comparable(got), rel(ROOT, root)).toEqual(comparable(want.shown));
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
    await client.stop();
  }, 600_000);
});
