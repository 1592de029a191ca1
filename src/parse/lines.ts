/**
 * Reading a long text file line by line without holding it: fixed-size chunks, each decoded up to
 * its last line break (a UTF-8 line break byte is never part of another character), so memory
 * stays at a chunk plus one unfinished line however large the file (or however long a followed log
 * grows). A line longer than `maxLine`
 * bytes is not kept: it is reported as too long and skipped to its end.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** A line as read: its text (without the line break and a trailing CR), or why it could not be. */
export type LineRead = { line: number; text: string } | { line: number; problem: 'tooLong' | 'notUtf8' };

export interface ReadLinesOptions {
  /** bytes read at a time */
  chunk?: number;
  /** longest line kept, in bytes */
  maxLine?: number;
}

export const MAX_LINE_BYTES = 1024 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Bytes in, lines out, in constant memory: feed the text as it comes (`push`), in chunks of any
 * size, then `end()` for a last line without a line break. `readLines` feeds it a file; `trace
 * --follow` a log as it grows.
 */
export class LineSplitter {
  private readonly maxLine: number;
  private line = 1;
  /** the unfinished last line of what was pushed so far (at most maxLine bytes) */
  private pending: Buffer = Buffer.alloc(0);
  /** the current line is too long: drop bytes until its end */
  private skipping = false;
  private first = true;

  constructor(
    private readonly onLine: (l: LineRead) => void,
    options: Pick<ReadLinesOptions, 'maxLine'> = {},
  ) {
    this.maxLine = options.maxLine ?? MAX_LINE_BYTES;
  }

  /** The number the next line will have. */
  get nextLine(): number {
    return this.line;
  }

  /** Bytes of an unfinished last line are waiting for its line break. */
  get waiting(): boolean {
    return this.pending.length > 0 || this.skipping;
  }

  private emit(bytes: Buffer): void {
    if (bytes.length > this.maxLine) {
      this.onLine({ line: this.line++, problem: 'tooLong' });
      return;
    }
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 0x0d) end--;
    let start = 0;
    if (this.first && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    this.first = false;
    try {
      this.onLine({ line: this.line, text: decoder.decode(bytes.subarray(start, end)) });
    } catch {
      this.onLine({ line: this.line, problem: 'notUtf8' });
    }
    this.line++;
  }

  /** Every line of `block` (complete lines, without the last line break): decoded at once, or one by one when it is not UTF-8. */
  private emitBlock(block: Buffer): void {
    let text: string;
    try {
      text = decoder.decode(block);
    } catch {
      for (let at = 0, nl = block.indexOf(0x0a); ; at = nl + 1, nl = block.indexOf(0x0a, at)) {
        this.emit(block.subarray(at, nl === -1 ? block.length : nl));
        if (nl === -1) return;
      }
    }
    for (let at = 0, nl = text.indexOf('\n'); ; at = nl + 1, nl = text.indexOf('\n', at)) {
      let l = text.slice(at, nl === -1 ? text.length : nl);
      // a UTF-16 unit is 1 to 3 bytes of UTF-8: count the bytes only of a line that may be too long
      if (l.length > this.maxLine / 3 && Buffer.byteLength(l) > this.maxLine) this.onLine({ line: this.line++, problem: 'tooLong' });
      else {
        if (l.endsWith('\r')) l = l.slice(0, -1);
        if (this.first && l.startsWith('\uFEFF')) l = l.slice(1);
        this.onLine({ line: this.line++, text: l });
      }
      this.first = false;
      if (nl === -1) return;
    }
  }

  /** The next bytes of the text (`data` may be reused by the caller afterwards). */
  push(data: Buffer): void {
    let at = 0;
    if (this.skipping) {
      const nl = data.indexOf(0x0a);
      if (nl === -1) return;
      this.onLine({ line: this.line++, problem: 'tooLong' });
      this.first = false;
      this.skipping = false;
      at = nl + 1;
    }
    const last = data.lastIndexOf(0x0a);
    if (last >= at) {
      this.emitBlock(this.pending.length > 0 ? Buffer.concat([this.pending, data.subarray(at, last)]) : data.subarray(at, last));
      this.pending = Buffer.alloc(0);
      at = last + 1;
    }
    const rest = data.subarray(at);
    if (this.pending.length + rest.length > this.maxLine) {
      this.pending = Buffer.alloc(0);
      this.skipping = true;
    } else if (rest.length > 0) {
      // copied: the caller may overwrite data
      this.pending = Buffer.concat([this.pending, rest]);
    }
  }

  /** The end of the text: a last line without a line break is a line. */
  end(): void {
    if (this.skipping) this.onLine({ line: this.line++, problem: 'tooLong' });
    else if (this.pending.length > 0) this.emit(this.pending);
    this.pending = Buffer.alloc(0);
    this.skipping = false;
  }

  /** Start again at line 1 (a log truncated or replaced), dropping an unfinished line. */
  reset(): void {
    this.line = 1;
    this.pending = Buffer.alloc(0);
    this.skipping = false;
    this.first = true;
  }
}

/** Call `onLine` for every line of the file, in order. Throws only for I/O errors (open, read). */
export function readLines(path: string, onLine: (l: LineRead) => void, options: ReadLinesOptions = {}): void {
  const chunk = options.chunk ?? 64 * 1024;
  const splitter = new LineSplitter(onLine, options);
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(chunk);
    for (;;) {
      const n = readSync(fd, buf, 0, chunk, null);
      if (n === 0) break;
      splitter.push(buf.subarray(0, n));
    }
    splitter.end();
  } finally {
    closeSync(fd);
  }
}
