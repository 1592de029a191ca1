/**
 * loopkit's places and diagnostics in the protocol's terms: file URIs for project-relative paths,
 * 0-based positions (UTF-16 code units, the protocol's default, as loopkit's columns count),
 * diagnostics with their code, severity, rule page and witness path.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  DiagnosticSeverity,
  type Diagnostic as LspDiagnostic,
  type DiagnosticRelatedInformation,
  type Location,
  type Position,
  type Range,
} from 'vscode-languageserver';
import type { Diagnostic, Related, Severity } from '../engine/diagnostic.js';
import { ruleDocsDirectory } from '../reporters/docs.js';
import { climbsOut } from '../util/paths.js';

/** The absolute path of a `file:` URI (null for other schemes: untitled buffers, git views …). */
export function uriPath(uri: string): string | null {
  if (!uri.startsWith('file:')) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

export function pathUri(abs: string): string {
  return pathToFileURL(abs).href;
}

/** The URI of a project-relative path. */
export function fileUri(root: string, file: string): string {
  return pathUri(file === '' ? root : join(root, file));
}

/** The project-relative path (with `/`) of an absolute path inside `root`, or null outside it. */
export function projectPath(root: string, abs: string): string | null {
  const rel = relative(root, abs);
  if (climbsOut(rel) || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}

/** A 1-based line and column (either may be null: the start of the file) as a protocol position. */
export function position(line: number | null | undefined, column: number | null | undefined): Position {
  return { line: Math.max(0, (line ?? 1) - 1), character: Math.max(0, (column ?? 1) - 1) };
}

/** A place as a range: to its end when given, else empty (editors mark the word there). */
export function range(line: number | null, column: number | null, endLine?: number | null, endColumn?: number | null): Range {
  const start = position(line, column);
  if (line === null || endLine == null) return { start, end: start };
  return { start, end: position(endLine, endColumn ?? column) };
}

/** A range of `length` code units on one line. */
export function span(line: number, column: number, length: number): Range {
  const start = position(line, column);
  return { start, end: { line: start.line, character: start.character + length } };
}

export function location(root: string, file: string, r: Range): Location {
  return { uri: fileUri(root, file), range: r };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

const docsPages = new Map<string, string | null>();

/**
 * The rule's page as a URI: `file:` URL of docs/rules/<code>.md of the running loopkit — the
 * repository's page in a checkout, the package's own copy when installed (the npm package and the
 * VS Code extension ship docs/rules), so it opens offline and matches the version that reported it.
 */
export function rulePage(code: string): string | null {
  let page = docsPages.get(code);
  if (page === undefined) {
    const dir = ruleDocsDirectory();
    const file = dir === null ? null : join(dir, `${code}.md`);
    page = file !== null && existsSync(file) ? pathUri(file) : null;
    docsPages.set(code, page);
  }
  return page;
}

/** What the editor shows of a loopkit diagnostic: the message, and its hint on the next line. */
export function diagnosticMessage(d: Pick<Diagnostic, 'message' | 'help'>): string {
  return d.help === '' ? d.message : `${d.message}\n${d.help}`;
}

function related(root: string, r: Related): DiagnosticRelatedInformation {
  return { location: location(root, r.file, range(r.line, r.column)), message: r.message };
}

/** The data a published diagnostic carries back to the server (code actions read it). */
export interface DiagnosticData {
  messageId?: string;
  skill?: string;
}

export function lspDiagnostic(root: string, d: Diagnostic): LspDiagnostic {
  const out: LspDiagnostic = {
    range: range(d.line, d.column, d.endLine, d.endColumn),
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'loopkit',
    message: diagnosticMessage(d),
  };
  const page = rulePage(d.code);
  if (page !== null) out.codeDescription = { href: page };
  if (d.related && d.related.length > 0) out.relatedInformation = d.related.map((r) => related(root, r));
  const data: DiagnosticData = {};
  if (d.messageId !== undefined) data.messageId = d.messageId;
  if (d.skill !== undefined) data.skill = d.skill;
  if (Object.keys(data).length > 0) out.data = data;
  return out;
}
