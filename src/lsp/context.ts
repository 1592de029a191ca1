/** What every editor feature works on: the project's last check, its index, and the file under the cursor. */
import type { Location } from 'vscode-languageserver';
import type { SessionCheck } from '../engine/session.js';
import type { FileKind } from '../model/types.js';
import { contractIndex, placeIn, type ContractIndex, type Occurrence } from './contract-index.js';
import { location, span } from './convert.js';
import { splitLines } from '../util/text.js';

export interface FeatureContext {
  /** the absolute project root */
  root: string;
  check: SessionCheck;
  index: ContractIndex;
  /** the file (project-relative), its kind in the project (null: a file the project does not read) and its lines */
  path: string;
  kind: FileKind | 'config' | null;
  lines: readonly string[];
  /** the file's text as the editor holds it */
  source: string;
  /** the text of another file of the project, as the session reads it (the editor's, else the disk's) */
  text(path: string): string | null;
}

/** A text's lines, as loopkit numbers them (`\n` ends a line). */
export function splitText(text: string): string[] {
  return splitLines(text);
}

export function featureContext(
  root: string,
  check: SessionCheck,
  path: string,
  docText: string,
  text: (path: string) => string | null,
): FeatureContext {
  const role = check.files.roles.find((r) => r.path === path);
  const kind = role?.kind ?? (path === (check.project.configFile ?? '.loopkit.yaml') ? 'config' : null);
  return { root, check, index: contractIndex(check, text), path, kind, lines: splitText(docText), source: docText, text };
}

/** The lines of a file (the current file's from the editor), read once per request. */
export function linesOf(ctx: FeatureContext, file: string, memo: Map<string, readonly string[]>): readonly string[] {
  if (file === ctx.path) return ctx.lines;
  let lines = memo.get(file);
  if (!lines) {
    lines = splitText(ctx.text(file) ?? '');
    memo.set(file, lines);
  }
  return lines;
}

/** An occurrence as a location, on the name itself (found in the text when the index knows only its token). */
export function occurrenceLocation(ctx: FeatureContext, o: Occurrence, memo: Map<string, readonly string[]>): Location {
  const column = o.exact ? o.column : (placeIn(o, linesOf(ctx, o.file, memo)) ?? o.column);
  return location(ctx.root, o.file, span(o.line, column, o.name.length));
}
