/**
 * Findings printed the moment they are found (`loopkit watch`, `loopkit trace --follow`): as the
 * text report writes a problem, as JSON Lines (one object per line: `{"type": "diagnostic", …}`,
 * progress events, a summary), or as GitHub Actions annotations. `--quiet` prints errors only.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { Diagnostic } from '../engine/diagnostic.js';
import { githubAnnotation } from '../reporters/github.js';
import { jsonDiagnostic } from '../reporters/json.js';
import { diagnosticLines, summaryLine } from '../reporters/text.js';
import type { CliIo } from './output.js';

export const STREAM_FORMATS = ['text', 'json', 'github'] as const;
export type StreamFormat = (typeof STREAM_FORMATS)[number];

export interface Counts {
  errors: number;
  warnings: number;
  info: number;
}

export class StreamPrinter {
  readonly counts: Counts = { errors: 0, warnings: 0, info: 0 };
  private readonly c: ChalkInstance;
  private readonly quiet: boolean;
  private readonly docs: boolean;

  constructor(
    private readonly format: StreamFormat,
    /** the project path as typed (paths are shown joined onto it) */
    private readonly root: string,
    private readonly io: CliIo,
    options: { color: boolean; quiet: boolean; docs: boolean },
  ) {
    this.c = new Chalk({ level: options.color ? 1 : 0 });
    this.quiet = options.quiet;
    this.docs = options.docs;
  }

  /** A line of progress (text: dimmed on stdout; JSON Lines: an event object; GitHub: none). */
  progress(text: string, event: Record<string, unknown>): void {
    if (this.quiet) return;
    if (this.format === 'text') this.io.stdout(`${this.c.dim(text)}\n`);
    else if (this.format === 'json') this.io.stdout(`${JSON.stringify(event)}\n`);
  }

  /** A problem, counted; `extra` goes into its JSON object (`version`, `line`). */
  diagnostic(d: Diagnostic, extra: Record<string, unknown> = {}): void {
    if (d.severity === 'error') this.counts.errors++;
    else if (d.severity === 'warning') this.counts.warnings++;
    else this.counts.info++;
    if (this.quiet && d.severity !== 'error') return;
    if (this.format === 'text') this.io.stdout(`${diagnosticLines(d, this.root, this.c, this.docs).join('\n')}\n`);
    else if (this.format === 'json')
      this.io.stdout(`${JSON.stringify({ type: 'diagnostic', ...extra, ...jsonDiagnostic(d, this.root) })}\n`);
    else this.io.stdout(`${githubAnnotation(d, this.root)}\n`);
  }

  /** The last line: PASS/FAIL with the counts (text), a summary object (JSON Lines); the exit code. */
  summary(counted: string, event: Record<string, unknown>): number {
    if (this.format === 'text') this.io.stdout(`${summaryLine(this.c, this.counts, counted)}\n`);
    else if (this.format === 'json') this.io.stdout(`${JSON.stringify({ type: 'summary', ...this.counts, ...event })}\n`);
    return this.counts.errors > 0 ? 1 : 0;
  }
}
