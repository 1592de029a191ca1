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
