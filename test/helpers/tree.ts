/**
 * Folders of files for tests that drive discovery in the test process: one temporary base (its real
 * path, so that paths compare with what discovery resolves), a fresh folder per call.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Trees {
  /** the base folder, under the system's temporary directory */
  base: string;
  /** A fresh folder under the base with these files (path → text; folders are made on the way). */
  tree(files?: Record<string, string>): string;
  /** A fresh name under the base, nothing made. */
  fresh(prefix: string): string;
  /** Remove the base and everything in it. */
  remove(): void;
}

export function trees(prefix: string): Trees {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  let count = 0;
  const fresh = (p: string) => join(base, `${p}${++count}`);
  return {
    base,
    fresh,
    tree(files = {}) {
      const dir = fresh('t');
      mkdirSync(dir);
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        writeFileSync(join(dir, rel), text);
      }
      return dir;
    },
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
