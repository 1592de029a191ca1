/**
 * The GitHub Action (action.yml): a JavaScript action whose committed entry (action/dist/index.cjs)
 * is run here as the runner runs it — `node <entry>` in the workspace, inputs as INPUT_<NAME>,
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, RUNNER_TEMP — from a copy of the action with no
 * node_modules anywhere above it (nothing installed). It annotates, writes SARIF, fills the job
 * summary and the outputs, exits with loopkit's exit code, and restores and saves loopkit's cache
 * through a stub of the Actions cache service (both of its protocols) served by this test. The
 * committed bundle must be what `npm run build:action` builds from the sources.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RACY_MS } from '../src/engine/cache.js';
import { cleanEnv, ROOT, Temps } from './helpers/cli.js';

const temps = new Temps();
afterAll(() => temps.cleanup());

interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value?: string }>;
  runs: { using: string; main: string; steps?: unknown };
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const source = readFileSync(join(ROOT, 'src', 'action', 'run.ts'), 'utf8');

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name), base) : [join(dir, e.name).slice(base.length + 1)]))
    .sort();
}

describe('action.yml', () => {
  it('is a JavaScript action whose main is the committed, self-contained entry (no install step)', () => {
    expect(['node20', 'node24']).toContain(action.runs.using);
    expect(action.runs.main).toBe('action/dist/index.cjs');
    expect(action.runs.steps).toBeUndefined();
    const tracked = spawnSync('git', ['ls-files', '-s', 'action/dist'], { cwd: ROOT, encoding: 'utf8' }).stdout;
    expect(tracked).toMatch(/^100644 \S+ 0\taction\/dist\/index\.cjs$/mu);
    // the pre-commit hook runs it as a script: executable in git
    expect(tracked).toMatch(/^100755 \S+ 0\taction\/dist\/loopkit\.cjs$/mu);
  });

  it('every input is read as GitHub passes it, every output is written', () => {
    for (const name of Object.keys(action.inputs)) expect(source, `run.ts reads ${name}`).toContain(`input(env, '${name}')`);
    expect(Object.keys(action.inputs).sort()).toEqual(['annotations', 'args', 'baseline', 'max-warnings', 'path', 'preset', 'sarif-file']);
    for (const [name, out] of Object.entries(action.outputs)) {
      expect(out.value).toBeUndefined();
      expect(source).toContain(`${name}=`);
    }
    for (const i of Object.values(action.inputs)) expect(i.description.length).toBeGreaterThan(20);
  });

  // in the mutation run the sources are instrumented in place (vitest.stryker.config.ts): they build another bundle
  it.skipIf(process.env.LOOPKIT_MUTATION_RUN === '1')(
    'the committed bundle is the one the sources build (run `npm run build:action` and commit action/dist)',
    () => {
      const out = join(temps.dir('loopkit-action-build-'), 'dist');
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-action.mjs'), '--out', out], { cwd: ROOT, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const committed = join(ROOT, 'action', 'dist');
      expect(filesUnder(committed)).toEqual(filesUnder(out));
      for (const f of filesUnder(out)) {
        expect(readFileSync(join(committed, f)).equals(readFileSync(join(out, f))), `action/dist/${f} is out of date`).toBe(true);
      }
    },
    120_000,
  );
});

/** The action as the runner has it: action.yml and action/dist, in a directory with no node_modules above it. */
let actionDir = '';
beforeAll(() => {
  actionDir = temps.dir('loopkit-action-');
  cpSync(join(ROOT, 'action.yml'), join(actionDir, 'action.yml'));
  cpSync(join(ROOT, 'action', 'dist'), join(actionDir, 'action', 'dist'), { recursive: true });
  // the repository's package.json (its "type") and rule pages come with the action's checkout
  cpSync(join(ROOT, 'package.json'), join(actionDir, 'package.json'));
  cpSync(join(ROOT, 'docs', 'rules'), join(actionDir, 'docs', 'rules'), { recursive: true });
});

interface Step {
  status: number | null;
  stdout: string;
  stderr: string;
  output: string;
  summary: string;
  runnerTemp: string;
  ms: number;
}

/** Run the entry as the runner does: `node <main>` in the workspace, inputs as INPUT_<NAME>. */
async function step(inputs: Record<string, string>, options: { workspace?: string; env?: Record<string, string> } = {}): Promise<Step> {
  const dir = temps.dir('loopkit-runner-');
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  const runnerTemp = join(dir, 'temp');
  mkdirSync(runnerTemp);
  const workspace = options.workspace ?? ROOT;
  const env = cleanEnv({
    ...files,
    GITHUB_WORKSPACE: workspace,
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: runnerTemp,
    LOOPKIT_CACHE_DIR: '',
    ...options.env,
  });
  for (const k of Object.keys(env)) if (k.startsWith('ACTIONS_') && !options.env?.[k]) delete env[k];
  // GitHub passes every declared input, its default when the workflow does not set it
  for (const [name, spec] of Object.entries(action.inputs)) env[`INPUT_${name.toUpperCase()}`] = inputs[name] ?? spec.default ?? '';
  const started = performance.now();
  const child = spawn(process.execPath, [join(actionDir, action.runs.main)], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    status,
    stdout,
    stderr,
    output: readFileSync(files.GITHUB_OUTPUT, 'utf8'),
    summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
    runnerTemp,
    ms: performance.now() - started,
  };
}

/** The loopkit cache directories the step made in the runner's temporary space. */
const cacheDirs = (s: Step) => readdirSync(s.runnerTemp).filter((d) => d.startsWith('loopkit-cache-'));

/** A copy of examples/loop as a workspace; `broken` breaks a transition. */
function loopWorkspace(broken: boolean): string {
  const ws = temps.dir('loopkit-workspace-');
  cpSync(join(ROOT, 'examples', 'loop'), ws, { recursive: true });
  if (broken) {
    const loop = join(ws, 'skills', 'iterating-autonomously', 'LOOP.md');
    const text = readFileSync(loop, 'utf8');
    expect(text).toContain('transition loop-iterating → loop-verifying');
    writeFileSync(loop, text.replace('transition loop-iterating → loop-verifying', 'transition loop-iterating → Loop-Verifying'));
  }
  return ws;
}

describe('the entry, run as the runner runs it', () => {
  it('on the loop example: exit 0, no install step, the job summary and the outputs', async () => {
    const r = await step({}, { workspace: loopWorkspace(false) });
    console.log(`the Action's entry on examples/loop: ${Math.round(r.ms)} ms (a cold run, no cache service)`);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::notice title=loopkit cache::not available (the runner gave no ACTIONS_RUNTIME_TOKEN (not on GitHub Actions?)): a cold run',
    ]);
    expect(r.summary).toMatch(/^### loopkit\n\n```text\nPASS {2}0 errors, 0 warnings, 0 info {2}· {2}1 skill, \d+ verifications\n```\n$/u);
    expect(r.output).toBe('exit-code=0\nsarif-file=\n');
  });

  it('on a broken copy: exit 1 with ::error file=… annotations, and SARIF when asked', async () => {
    const ws = loopWorkspace(true);
    const r = await step({ 'sarif-file': 'out/loopkit.sarif' }, { workspace: ws });
    expect(r.status).toBe(1);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatch(/^::error file=skills\/iterating-autonomously\/LOOP\.md,line=\d+,col=\d+,title=loopkit [a-z-]+::/u);
    const doc = JSON.parse(readFileSync(join(ws, 'out', 'loopkit.sarif'), 'utf8')) as { version: string; runs: { results: unknown[] }[] };
    expect(doc.version).toBe('2.1.0');
    expect(doc.runs[0]!.results.length).toBe(r.stdout.split('\n').filter((l) => /^::(?:error|warning|notice) file=/u.test(l)).length);
    expect(r.output).toBe('exit-code=1\nsarif-file=out/loopkit.sarif\n');
    expect(r.summary).toContain('FAIL  ');
  });

  it('annotates every problem, writes SARIF and the job summary, sets the outputs, exits 1 on errors', async () => {
    const sarif = join(temps.dir(), 'loopkit.sarif');
    const r = await step({ path: 'fixtures/projects/with-errors', 'sarif-file': sarif });
    expect(r.status).toBe(1);
    const lines = r.stdout.split('\n').filter((l) => !l.startsWith('::notice title=loopkit cache::'));
    expect(lines[0]).toBe('loopkit check fixtures/projects/with-errors');
    const annotations = lines.filter((l) => l.startsWith('::'));
    expect(annotations.length).toBe(11);
    expect(annotations[0]).toMatch(
      /^::error file=fixtures\/projects\/with-errors\/\.loopkit\.yaml,line=2,col=5,title=loopkit state-enforced-missing::/u,
    );
    const doc = JSON.parse(readFileSync(sarif, 'utf8')) as { version: string; runs: { results: unknown[] }[] };
    expect(doc.version).toBe('2.1.0');
    expect(doc.runs[0]!.results).toHaveLength(11);
    expect(r.output).toBe(`exit-code=1\nsarif-file=${sarif}\n`);
    expect(r.summary).toMatch(/^### loopkit\n\n```text\n[\s\S]*FAIL {2}8 errors, 3 warnings, 0 info[\s\S]*\n```\n$/u);
    // the checks ran cached (the default), in the runner's temporary space: one project folder
    const [dir] = cacheDirs(r);
    expect(readdirSync(join(r.runnerTemp, dir!)).filter((f) => /^[0-9a-f]{16}$/u.test(f))).toHaveLength(1);
  });

  it('a clean project passes; annotations "false" prints the text report; no SARIF unless asked', async () => {
    const r = await step({ path: 'fixtures/projects/clean', annotations: 'false' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('PASS  0 errors, 0 warnings, 0 info');
    expect(r.output).toBe('exit-code=0\nsarif-file=\n');
  });

  it('preset, max-warnings, baseline and args are passed on', async () => {
    expect((await step({ path: 'fixtures/projects/unknown-key', 'max-warnings': '0' })).status).toBe(1);
    const preset = await step({
      path: 'fixtures/projects/plain-collection',
      preset: 'loop-language',
      args: '--rule skill-missing-rules   --quiet',
    });
    expect(preset.stdout).toContain(
      'loopkit check fixtures/projects/plain-collection --preset loop-language --rule skill-missing-rules --quiet\n',
    );
    expect(preset.stdout.match(/^::error .*title=loopkit skill-missing-rules::/gmu)).toHaveLength(2);
    expect(preset.status).toBe(1);
    const missing = await step({ path: 'fixtures/projects/clean', baseline: 'no-such-baseline.json' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no-such-baseline.json not found');
    expect(missing.output).toBe('exit-code=2\nsarif-file=\n');
  });

  it('a broken configuration is exit 2 and writes no SARIF', async () => {
    const sarif = join(temps.dir(), 'x.sarif');
    const r = await step({ path: 'fixtures/projects/bad-type', 'sarif-file': sarif });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('max_iterations');
    expect(existsSync(sarif)).toBe(false);
  });
});

/** A stub of the Actions cache service: v2 (Twirp JSON + signed blob URLs) and v1 (the REST API), in memory. */
class CacheStub {
  readonly calls: string[] = [];
  readonly entries: { key: string; version: string; data: Buffer; done: boolean }[] = [];
  private server: Server | null = null;
  base = '';
  constructor(readonly token: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, body, type }) => {
          res.writeHead(status, type ? { 'Content-Type': type } : {});
          res.end(body);
        },
        (e: Error) => {
          res.writeHead(500);
          res.end(e.message);
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private find(keys: string[], version: string) {
    const ready = this.entries.filter((e) => e.done && e.version === version).reverse();
    return ready.find((e) => e.key === keys[0]) ?? keys.map((k) => ready.find((e) => e.key.startsWith(k))).find((e) => e);
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body?: string | Buffer; type?: string }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url!, this.base);
    const json = (status: number, value: unknown) => ({ status, body: JSON.stringify(value), type: 'application/json' });
    this.calls.push(`${req.method} ${url.pathname}`);
    // the signed blob URLs carry their own authorisation; everything else needs the runtime token
    if (url.pathname.startsWith('/blob/')) {
      const entry = this.entries[Number(url.pathname.slice(6))]!;
      if (url.searchParams.get('sig') !== 'signed') return { status: 403 };
      if (req.method === 'PUT') {
        if (req.headers['x-ms-blob-type'] !== 'BlockBlob') return { status: 400 };
        entry.data = body;
        return { status: 201 };
      }
      return { status: 200, body: entry.data };
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) return { status: 401 };
    const twirp = '/twirp/github.actions.results.api.v1.CacheService/';
    if (url.pathname.startsWith(twirp)) {
      const r = JSON.parse(body.toString()) as { key: string; version: string; restore_keys?: string[]; size_bytes?: string };
      const method = url.pathname.slice(twirp.length);
      if (method === 'GetCacheEntryDownloadURL') {
        const e = this.find([r.key, ...(r.restore_keys ?? [])], r.version);
        if (!e) return json(200, { ok: false });
        return json(200, { ok: true, signed_download_url: `${this.base}blob/${this.entries.indexOf(e)}?sig=signed`, matched_key: e.key });
      }
      if (method === 'CreateCacheEntry') {
        if (this.entries.some((e) => e.key === r.key && e.version === r.version)) return json(200, { ok: false, message: 'exists' });
        this.entries.push({ key: r.key, version: r.version, data: Buffer.alloc(0), done: false });
        return json(200, { ok: true, signed_upload_url: `${this.base}blob/${this.entries.length - 1}?sig=signed` });
      }
      if (method === 'FinalizeCacheEntryUpload') {
        const e = this.entries.find((x) => x.key === r.key && x.version === r.version && !x.done);
        if (!e || String(e.data.length) !== r.size_bytes) return json(200, { ok: false, message: 'size mismatch' });
        e.done = true;
        return json(200, { ok: true, entry_id: String(this.entries.indexOf(e) + 1) });
      }
      return { status: 404 };
    }
    const api = '/_apis/artifactcache/';
    if (!url.pathname.startsWith(api) || req.headers.accept !== 'application/json;api-version=6.0-preview.1') return { status: 404 };
    const resource = url.pathname.slice(api.length);
    if (req.method === 'GET' && resource === 'cache') {
      const e = this.find(url.searchParams.get('keys')!.split(','), url.searchParams.get('version')!);
      if (!e) return { status: 204 };
      return json(200, { cacheKey: e.key, archiveLocation: `${this.base}blob/${this.entries.indexOf(e)}?sig=signed` });
    }
    if (req.method === 'POST' && resource === 'caches') {
      const r = JSON.parse(body.toString()) as { key: string; version: string };
      if (this.entries.some((e) => e.key === r.key && e.version === r.version)) return { status: 409 };
      this.entries.push({ key: r.key, version: r.version, data: Buffer.alloc(0), done: false });
      return json(201, { cacheId: this.entries.length - 1 });
    }
    const id = /^caches\/(\d+)$/u.exec(resource);
    const entry = id ? this.entries[Number(id[1])] : undefined;
    if (entry && req.method === 'PATCH') {
      const range = /^bytes (\d+)-(\d+)\/\*$/u.exec(String(req.headers['content-range']));
      if (!range || Number(range[1]) !== entry.data.length || Number(range[2]) - Number(range[1]) + 1 !== body.length)
        return { status: 400 };
      entry.data = Buffer.concat([entry.data, body]);
      return { status: 204 };
    }
    if (entry && req.method === 'POST') {
      const { size } = JSON.parse(body.toString()) as { size: number };
      if (size !== entry.data.length) return { status: 400 };
      entry.done = true;
      return { status: 204 };
    }
    return { status: 404 };
  }
}

describe('the cache, through the Actions cache service', () => {
  const token = 'runtime-token-for-the-test';
  const services = {
    v2: (stub: CacheStub) => ({ ACTIONS_RUNTIME_TOKEN: token, ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: stub.base }),
    v1: (stub: CacheStub) => ({ ACTIONS_RUNTIME_TOKEN: token, ACTIONS_CACHE_URL: stub.base }),
  };
  for (const [protocol, envOf] of Object.entries(services)) {
    it(`${protocol}: the first run saves it (one notice: a miss), the next restores it and reads every file from it`, async () => {
      const stub = new CacheStub(token);
      await stub.start();
      try {
        const ws = loopWorkspace(false);
        // a runner's checkout is older than the cache's racy window: so are these files before the first
        // run (a file written just now is hashed again until it is older, and the cache a run leaves then
        // differs from the one before: on a loaded machine the second run crossed the window and saved again)
        await new Promise((done) => setTimeout(done, RACY_MS + 100));
        const first = await step({ args: '--timing' }, { workspace: ws, env: envOf(stub) });
        expect(first.status, first.stderr).toBe(0);
        expect(first.stdout.match(/^::notice.*$/gmu)).toEqual([
          '::notice title=loopkit cache::no saved cache for this version of loopkit, OS and configuration yet: a cold run',
        ]);
        expect(first.stdout).toMatch(
          /^loopkit cache: saved loopkit-\d+\.\d+\.\d+-\w+-\w+-[0-9a-f]{16}-[0-9a-f]{16} \(\d+ files, \d+ KiB\)$/mu,
        );
        expect(first.stderr).toMatch(/\(0 from the cache, [1-9]\d* parsed/u);
        expect(stub.entries.filter((e) => e.done)).toHaveLength(1);

        // a new runner (its own temporary space), the same workspace: a warm run
        const second = await step({ args: '--timing' }, { workspace: ws, env: envOf(stub) });
        expect(second.status, second.stderr).toBe(0);
        expect(second.stdout).not.toContain('::notice');
        expect(second.stdout).toMatch(/^loopkit cache: restored loopkit-\S+ \(\d+ files, \d+ KiB\)$/mu);
        expect(second.stderr).toMatch(/\(\d+ from the cache, 0 parsed/u);
        expect(second.stdout).toContain('loopkit cache: unchanged, not saved again');
        expect(stub.entries.filter((e) => e.done)).toHaveLength(1);
        expect(second.summary).toBe(first.summary);
      } finally {
        await stub.stop();
      }
    }, 60_000);
  }

  it('a service that does not answer is a cold run with one notice, and the check is the same', async () => {
    const stub = new CacheStub(token);
    await stub.start();
    const base = stub.base;
    await stub.stop();
    const r = await step({}, { workspace: loopWorkspace(false), env: { ACTIONS_RUNTIME_TOKEN: token, ACTIONS_CACHE_URL: base } });
    expect(r.status).toBe(0);
    const notices = r.stdout.match(/^::notice.*$/gmu) ?? [];
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^::notice title=loopkit cache::the Actions cache service could not be used \(looking up the cache: .+\): a cold run$/u,
    );
    expect(r.output).toBe('exit-code=0\nsarif-file=\n');
  });

  it('--no-cache in args: no cache, no service, no notice', async () => {
    const stub = new CacheStub(token);
    await stub.start();
    try {
      const r = await step({ args: '--no-cache' }, { workspace: loopWorkspace(false), env: services.v2(stub) });
      expect(r.status).toBe(0);
      expect(r.stdout).not.toContain('::notice');
      expect(stub.calls).toEqual([]);
      expect(cacheDirs(r)).toEqual([]);
    } finally {
      await stub.stop();
    }
  });

  it('the workspace is never written into (the cache is in the runner temporary space)', async () => {
    const ws = loopWorkspace(false);
    const before = filesUnder(ws);
    await step({}, { workspace: ws });
    expect(filesUnder(ws)).toEqual(before);
    expect(statSync(ws).isDirectory()).toBe(true);
  });
});
