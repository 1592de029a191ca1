/** What language a file in a skill's scripts/ directory is written in (by extension, else shebang). */
import type { SourceFile } from '../../model/types.js';

export type ScriptLanguage = 'python' | 'javascript' | 'typescript' | 'ruby' | 'shell';

const BY_EXTENSION: Record<string, ScriptLanguage> = {
  py: 'python',
  pyw: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  rb: 'ruby',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  ksh: 'shell',
  fish: 'shell',
};

/** The interpreter named by a `#!` line (`#!/usr/bin/env -S uv run python3` → `python3`). */
function shebangLanguage(text: string): ScriptLanguage | null {
  const m = /^#![^\n]*/u.exec(text);
  if (!m) return null;
  const words = m[0]
    .slice(2)
    .trim()
    .split(/\s+/u)
    .map((w) => w.split('/').pop() ?? w);
  for (const w of words) {
    if (/^python[\d.]*$/u.test(w) || w === 'uv' || w === 'pipx') return 'python';
    if (w === 'node' || w === 'bun') return 'javascript';
    if (w === 'deno' || w === 'tsx' || w === 'ts-node') return 'typescript';
    if (w === 'ruby') return 'ruby';
    if (/^(?:ba|z|k|da|fi)?sh$/u.test(w)) return 'shell';
  }
  return null;
}

/** The language of a script file, or null when it is not a recognised program (data, docs …). */
export function scriptLanguage(file: SourceFile): ScriptLanguage | null {
  const name = file.path.split('/').pop() ?? file.path;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return BY_EXTENSION[ext] ?? shebangLanguage(file.text);
}

/** Test files and package markers: run by a test runner or imported, never by an agent. */
const NOT_A_TOOL =
  /^(?:test_.*\.py|.*_test\.py|conftest\.py|__init__\.py|__main__\.py|setup\.py|.*\.(?:test|spec)\.[cm]?[jt]sx?|.*_spec\.rb|.*_test\.go)$/iu;

/**
 * Whether a script file is a command an agent runs, not a helper of one: tests and package files
 * are not (`test_x.py`, `__init__.py`, `x.test.ts`); a Python file is a command when it has a
 * shebang, an inline-metadata block (`# /// script`, PEP 723) or a `if __name__ == "__main__":`
 * block (else it is a module the commands import); a
 * shell file when it has a shebang (else it is sourced); other languages when they are recognised.
 */
export function isRunnableScript(file: SourceFile): boolean {
  const name = file.path.split('/').pop() ?? file.path;
  if (NOT_A_TOOL.test(name)) return false;
  const language = scriptLanguage(file);
  if (language === null) return false;
  const shebang = file.text.startsWith('#!');
  if (language === 'python')
    return shebang || /^#\s*\/\/\/\s*script\s*$/mu.test(file.text) || /^if\s+__name__\s*==\s*["']__main__["']\s*:/mu.test(file.text);
  if (language === 'shell') return shebang;
  return true;
}
