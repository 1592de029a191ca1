/**
 * The projects the server holds — one engine session each — and what it publishes of them.
 *
 * A workspace folder that is a loopkit project (a `.loopkit.yaml`, or skills in a usual layout) is
 * read when the server starts, so the whole project's problems show before any file is opened; a
 * file opened elsewhere brings in the project it belongs to (the nearest `.loopkit.yaml` above it,
 * as `loopkit check <file>` finds it). After every update a project publishes the diagnostics of
 * the files whose diagnostics changed, and an empty list for the files that have none any more
 * (a deleted or renamed file, a problem fixed in another file).
 *
 * Nothing outside the workspace folders the client declares is read (docs/security.md): a document
 * or request naming a file outside them — by its path, `..`, or a link that leads out — is not
 * checked and not answered, and a project whose root lies above every folder is not opened. A
 * client that declares no folder gets the project of each document it opens, as `loopkit check
 * <file>` finds it.
 */
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import { projectOf } from '../api/project.js';
import { CONFIG_FILE, ConfigError } from '../config/errors.js';
import { applyBaseline, parseBaseline } from '../engine/baseline.js';
import type { ProjectSession, FileChange, SessionCheck, SessionOptions, SessionState } from '../engine/session.js';
import { openSession } from '../api/engine.js';
import { confine, rootOf, type Root } from '../parse/confine.js';
import { ProjectError } from '../parse/errors.js';
import { fileUri, lspDiagnostic, projectPath, range } from './convert.js';
import { watchProject, type ProjectWatch } from './watch.js';

/** The baseline `check` applies by default (commands/baseline.ts). */
const BASELINE_FILE = '.loopkit-baseline.json';

export interface Hosted {
  root: string;
  session: ProjectSession;
  /** the server's own watching of the project (when the editor does not watch files) */
  watch?: ProjectWatch;
  /** what was published last, by URI (JSON of the diagnostics) */
  published: Map<string, string>;
  /** the session version published last */
  version: number;
  /** the URI of each project file published (the same on every publication) */
  uris: Map<string, string>;
}

export interface WorkspaceHost {
  publish(uri: string, diagnostics: LspDiagnostic[]): void;
  log(message: string): void;
  /** a message the user must see (a project that cannot be read at all) */
  warn(message: string): void;
  /** an update under way (requests wait for it) */
  track(update: Promise<void>): void;
}

export class Workspace {
  /** watch the projects' files here (the editor does not) */
  watchFiles = false;
  private readonly projects = new Map<string, Hosted>();
  private readonly opening = new Map<string, Promise<Hosted | null>>();
  /** directories known not to be projects */
  private readonly notProjects = new Set<string>();
  /** the project root of each file asked about (null: none), until files are created */
  private readonly roots = new Map<string, string | null>();
  /** the workspace folders the client declared (null: none; then the project of each document opened) */
  private folders: Root[] | null = null;
  /** project roots above every folder, each told once */
  private readonly refused = new Set<string>();

  constructor(
    private readonly host: WorkspaceHost,
    /** the options of a project's session (its cache file, threads …), by its root */
    private readonly options: (root: string) => Omit<SessionOptions, 'root' | 'ruleSet'> = () => ({}),
  ) {}

  /** Once every project being opened is read. */
  async ready(): Promise<void> {
    while (this.opening.size > 0) await Promise.all([...this.opening.values()]);
  }

  all(): Hosted[] {
    return [...this.projects.values()];
  }

  /** The project that holds a file: the deepest project root above it. */
  holding(abs: string): Hosted | undefined {
    let best: Hosted | undefined;
    for (const p of this.projects.values()) {
      if (projectPath(p.root, abs) !== null && (!best || p.root.length > best.root.length)) best = p;
    }
    return best;
  }

  /** A workspace folder: files may be read in it; read it when it is a project. */
  addFolder(abs: string): Promise<Hosted | null> {
    const root = rootOf(abs);
    if (root === null) return Promise.resolve(null);
    this.folders = [...(this.folders ?? []).filter((f) => f.given !== root.given), root];
    return this.open(abs, true);
  }

  /**
   * May the server read this file (or answer for it)? Inside a workspace folder, resolved part by
   * part without looking outside (a document not saved yet: its folder inside one); with no folder
   * declared, any file (its project is found as check finds it).
   */
  admits(abs: string): boolean {
    if (this.folders === null) return true;
    const found = confine(abs, this.folders, { directories: true, limit: Number.MAX_SAFE_INTEGER });
    if (!('refused' in found)) return true;
    return found.why === 'missing' && dirname(abs) !== abs && this.admits(dirname(abs));
  }

  removeFolder(abs: string): void {
    const root = rootOf(abs);
    if (this.folders !== null) this.folders = this.folders.filter((f) => f.given !== abs && f.real !== root?.real);
    for (const p of [...this.projects.values()]) {
      if (projectPath(abs, p.root) === null) continue;
      for (const uri of p.published.keys()) this.host.publish(uri, []);
      p.watch?.close();
      this.projects.delete(p.root);
    }
  }

  /** Stop watching files. */
  close(): void {
    for (const p of this.projects.values()) p.watch?.close();
  }

  /** Watch the project's root and skills directories (again, when they changed). */
  private rewatch(hosted: Hosted): void {
    if (!this.watchFiles) return;
    const project = hosted.session.state.check?.project;
    const dirs = project ? project.skillsDirs.map((d) => (d === '' ? hosted.root : join(hosted.root, d))) : (hosted.watch?.dirs ?? []);
    if (hosted.watch && hosted.watch.dirs.join('\u0000') === dirs.join('\u0000')) return;
    hosted.watch?.close();
    hosted.watch = watchProject(
      hosted.root,
      dirs,
      (changes) => this.host.track(this.changed(changes)),
      (message) => this.host.log(`loopkit: cannot watch ${message}; files changed outside the editor are read when they are opened`),
    );
  }

  /** The project a file belongs to, read when it is not held yet (null: the file is in no project). */
  async projectFor(abs: string): Promise<Hosted | null> {
    // as `check <file>` finds it: the nearest .loopkit.yaml above the file (a project inside a held one wins)
    let root = this.roots.get(abs);
    if (root === undefined) {
      try {
        root = projectOf(abs, statSync(abs).isDirectory());
      } catch {
        root = null;
      }
      this.roots.set(abs, root);
    }
    const held = this.holding(abs);
    if (root === null || (held && held.root.length >= root.length)) return held ?? null;
    // a project whose root is above every workspace folder is not the client's to have read
    if (!this.admits(root)) {
      if (!this.refused.has(root)) {
        this.refused.add(root);
        this.host.log(`loopkit: the project ${root} lies outside the workspace folders: not read (open it as a folder)`);
      }
      return held ?? null;
    }
    return (await this.open(root, false)) ?? held ?? null;
  }

  private open(root: string, folder: boolean): Promise<Hosted | null> {
    const held = this.projects.get(root);
    if (held) return Promise.resolve(held);
    if (this.notProjects.has(root)) return Promise.resolve(null);
    let opening = this.opening.get(root);
    if (!opening) {
      opening = this.start(root, folder).finally(() => this.opening.delete(root));
      this.opening.set(root, opening);
    }
    return opening;
  }

  private async start(root: string, folder: boolean): Promise<Hosted | null> {
    let session: ProjectSession;
    try {
      session = await openSession({ ...this.options(root), root });
    } catch (e) {
      this.host.log(`${root}: ${(e as Error).message}`);
      this.notProjects.add(root);
      return null;
    }
    const { failure } = session.state;
    // a folder without a config file and without skills is not a loopkit project
    if (failure instanceof ProjectError && !('text' in session.read(CONFIG_FILE))) {
      this.host.log(`${root}: not a loopkit project (${failure.message})`);
      this.notProjects.add(root);
      return null;
    }
    const hosted: Hosted = { root, session, published: new Map(), version: -1, uris: new Map() };
    this.projects.set(root, hosted);
    this.host.log(`${folder ? 'workspace folder' : 'project'} ${root}: ${describe(session.state)}`);
    const note = session.state.check?.presetNote ?? session.state.check?.layoutNote;
    if (note !== undefined) this.host.log(note);
    this.publish(hosted);
    return hosted;
  }

  /** An editor buffer's text (null: closed, the disk's text again). */
  async setText(hosted: Hosted, abs: string, text: string | null): Promise<void> {
    const path = projectPath(hosted.root, abs);
    if (path === null) return;
    await hosted.session.setText(path, text);
    if (path === BASELINE_FILE) hosted.version = -1;
    this.publish(hosted, fileUri(hosted.root, path));
  }

  /** Files changed on disk (absolute paths); each project they lie in updates. */
  async changed(changes: readonly { abs: string; type: FileChange['type'] }[]): Promise<void> {
    // a directory that was no project may have become one
    if (changes.some((c) => c.type === 'created')) {
      this.notProjects.clear();
      this.roots.clear();
    }
    const updates: Promise<void>[] = [];
    for (const hosted of this.projects.values()) {
      const mine: FileChange[] = [];
      for (const c of changes) {
        const path = projectPath(hosted.root, c.abs);
        if (path !== null && path !== '') mine.push({ path, type: c.type });
      }
      if (mine.length === 0) continue;
      // the baseline is no file of the project: a change of it changes what is published, not the check
      if (mine.some((c) => c.path === BASELINE_FILE)) hosted.version = -1;
      updates.push(hosted.session.changed(mine).then(() => this.publish(hosted)));
    }
    await Promise.all(updates);
  }

  /** Publish what changed since the last publication of this project (the file being edited first: it is the one looked at). */
  publish(hosted: Hosted, first?: string): void {
    const state = hosted.session.state;
    if (state.version === hosted.version) return;
    hosted.version = state.version;
    this.rewatch(hosted);
    const next = this.diagnosticsByUri(hosted, state);
    const order = first === undefined ? [...next] : [...next].sort(([a], [b]) => (a === first ? -1 : b === first ? 1 : 0));
    if (first !== undefined && !next.has(first) && hosted.published.has(first)) {
      hosted.published.delete(first);
      this.host.publish(first, []);
    }
    for (const [uri, list] of order) {
      const json = JSON.stringify(list);
      if (hosted.published.get(uri) === json) continue;
      hosted.published.set(uri, json);
      this.host.publish(uri, list);
    }
    for (const uri of [...hosted.published.keys()]) {
      if (next.has(uri)) continue;
      hosted.published.delete(uri);
      this.host.publish(uri, []);
    }
  }

  /** Every file's diagnostics, by URI: the check's (less the baseline's), or where the project cannot be checked, why. */
  private diagnosticsByUri(hosted: Hosted, state: SessionState): Map<string, LspDiagnostic[]> {
    const out = new Map<string, LspDiagnostic[]>();
    const add = (file: string, d: LspDiagnostic) => {
      let uri = hosted.uris.get(file);
      if (uri === undefined) hosted.uris.set(file, (uri = fileUri(hosted.root, file)));
      const list = out.get(uri);
      if (list) list.push(d);
      else out.set(uri, [d]);
    };
    if (state.check) {
      const { check, problem } = withBaseline(hosted.session, state.check);
      for (const d of check.diagnostics) add(d.file, lspDiagnostic(hosted.root, d));
      if (problem) add(BASELINE_FILE, problem);
    } else if (state.failure) {
      for (const [file, d] of failureDiagnostics(hosted.session, state.failure)) add(file, d);
      if (out.size === 0) this.host.warn(`loopkit: ${hosted.root}: ${state.failure.message}`);
    }
    return out;
  }
}

function describe(state: SessionState): string {
  if (state.check) return `${state.check.project.skills.length} skills, ${state.check.diagnostics.length} problems`;
  return `cannot be checked: ${state.failure?.message ?? 'unknown'}`;
}

/**
 * The check as `check` reports it: without the problems `.loopkit-baseline.json` records, when the
 * project has one; a baseline that cannot be read is a problem in that file.
 */
function withBaseline(session: ProjectSession, check: SessionCheck): { check: SessionCheck; problem?: LspDiagnostic } {
  const read = session.read(BASELINE_FILE);
  if (!('text' in read)) return { check };
  try {
    return { check: applyBaseline(check, parseBaseline(read.text)).result };
  } catch (e) {
    return {
      check,
      problem: { range: range(1, 1), severity: 1, source: 'loopkit', message: `baseline ${BASELINE_FILE} is ${(e as Error).message}` },
    };
  }
}

/** Why a project cannot be checked, in its `.loopkit.yaml`: each issue at its place. */
function failureDiagnostics(session: ProjectSession, failure: Error): [string, LspDiagnostic][] {
  const config = session.read(CONFIG_FILE);
  const lines = 'text' in config ? config.text.split(/\r?\n/u) : [];
  const toEnd = (line: number | null, column: number | null) => {
    const r = range(line, column);
    if (line !== null) r.end = { line: r.start.line, character: Math.max(r.start.character, (lines[line - 1] ?? '').length) };
    return r;
  };
  const diagnostic = (line: number | null, column: number | null, message: string): LspDiagnostic => ({
    range: toEnd(line, column),
    severity: 1,
    source: 'loopkit',
    message,
  });
  if (failure instanceof ConfigError) {
    return failure.issues.map((i) => [failure.file, diagnostic(i.line, i.column, `${i.field ? `${i.field}: ` : ''}${i.detail}`)]);
  }
  if (!('text' in config)) return [];
  // a project error (no skills, a skills directory that does not exist) is about skills_dir when the file writes it
  const at = lines.findIndex((l) => /^skills_dir\s*:/u.test(l));
  return [[CONFIG_FILE, diagnostic(at >= 0 ? at + 1 : 1, 1, failure.message)]];
}
