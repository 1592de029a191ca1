/**
 * Reading a long text file line by line without holding it: fixed-size chunks, each decoded up to
 * its last line break (a UTF-8 line break byte is never part of another character), so memory
 * stays at a chunk plus one unfinished line however large the file. A line longer than `maxLine`
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

/** Call `onLine` for every line of the file, in order. Throws only for I/O errors (open, read). */
export function readLines(path: string, onLine: (l: LineRead) => void, options: ReadLinesOptions = {}): void {
  const chunk = options.chunk ?? 64 * 1024;
  const maxLine = options.maxLine ?? MAX_LINE_BYTES;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(chunk);
    let line = 1;
    /** the unfinished last line of what was read so far (at most maxLine bytes) */
    let pending: Buffer = Buffer.alloc(0);
    /** the current line is too long: drop bytes until its end */
    let skipping = false;
    let first = true;

    const emit = (bytes: Buffer) => {
      if (bytes.length > maxLine) {
        onLine({ line: line++, problem: 'tooLong' });
        return;
      }
      let end = bytes.length;
      if (end > 0 && bytes[end - 1] === 0x0d) end--;
      let start = 0;
      if (first && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
      first = false;
      try {
        onLine({ line, text: decoder.decode(bytes.subarray(start, end)) });
      } catch {
        onLine({ line, problem: 'notUtf8' });
      }
      line++;
    };

    /** Every line of `block` (complete lines, without the last line break): decoded at once, or one by one when it is not UTF-8. */
    const emitBlock = (block: Buffer) => {
      let text: string;
      try {
        text = decoder.decode(block);
      } catch {
        for (let at = 0, nl = block.indexOf(0x0a); ; at = nl + 1, nl = block.indexOf(0x0a, at)) {
          emit(block.subarray(at, nl === -1 ? block.length : nl));
          if (nl === -1) return;
        }
      }
      for (let at = 0, nl = text.indexOf('\n'); ; at = nl + 1, nl = text.indexOf('\n', at)) {
        let l = text.slice(at, nl === -1 ? text.length : nl);
        // a UTF-16 unit is 1 to 3 bytes of UTF-8: count the bytes only of a line that may be too long
        if (l.length > maxLine / 3 && Buffer.byteLength(l) > maxLine) onLine({ line: line++, problem: 'tooLong' });
        else {
          if (l.endsWith('\r')) l = l.slice(0, -1);
          if (first && l.startsWith('\uFEFF')) l = l.slice(1);
          onLine({ line: line++, text: l });
        }
        first = false;
        if (nl === -1) return;
      }
    };

    for (;;) {
      const n = readSync(fd, buf, 0, chunk, null);
      if (n === 0) break;
      let data = buf.subarray(0, n);
      let at = 0;
      if (skipping) {
        const nl = data.indexOf(0x0a);
        if (nl === -1) continue;
        onLine({ line: line++, problem: 'tooLong' });
        first = false;
        skipping = false;
        at = nl + 1;
      }
      const last = data.lastIndexOf(0x0a);
      if (last >= at) {
        emitBlock(pending.length > 0 ? Buffer.concat([pending, data.subarray(at, last)]) : data.subarray(at, last));
        pending = Buffer.alloc(0);
        at = last + 1;
      }
      data = data.subarray(at);
      if (pending.length + data.length > maxLine) {
        pending = Buffer.alloc(0);
        skipping = true;
      } else if (data.length > 0) {
        // copied: buf is overwritten by the next read
        pending = Buffer.concat([pending, data]);
      }
    }
    if (skipping) onLine({ line: line++, problem: 'tooLong' });
    else if (pending.length > 0) emit(pending);
  } finally {
    closeSync(fd);
  }
}
