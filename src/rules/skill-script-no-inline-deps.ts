import { builtinModules } from 'node:module';
import { defineRule } from '../engine/rule.js';
import type { SourceFile } from '../model/types.js';
import { isRunnableScript, scriptLanguage } from './lib/script.js';

/** PEP 723 block, its `dependencies =` line, npm:/jsr: specifiers, bundler/inline. */
const MARKER = /^#\s*\/\/\/\s*script\s*$|^#\s*dependencies\s*=|["'](?:npm|jsr):|\brequire\s*\(?\s*["']bundler\/inline["']/mu;

const NODE_BUILTINS = new Set(builtinModules);

/** Module specifiers of import/export/require/import() in JavaScript or TypeScript. */
function jsSpecifiers(text: string): string[] {
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(["'])([^"'\n]+)\1/gu;
  return [...text.matchAll(re)].map((m) => m[2]!);
}

/** A package the script needs from a registry (not relative, not a URL/builtin). */
function isPackage(spec: string): boolean {
  if (/^(?:\.|\/|[a-z][a-z0-9+.-]*:)/iu.test(spec)) return false;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  return !NODE_BUILTINS.has(name);
}

/** Does this script depend on something that an inline declaration would make self-contained? */
function needsDeclaration(file: SourceFile): boolean {
  switch (scriptLanguage(file)) {
    case 'python':
      return true; // PEP 723 also pins requires-python, even for standard-library-only scripts
    case 'javascript':
    case 'typescript':
      return jsSpecifiers(file.text).some(isPackage);
    case 'ruby':
      return /^\s*(?:require\s*\(?\s*["'](?!bundler\/inline)|gem\s+["'])/mu.test(file.text);
    default:
      return false; // shell scripts and data files have no dependency manifest
  }
}

export default defineRule({
  meta: {
    code: 'skill-script-no-inline-deps',
    defaultSeverity: 'info',
    certainty: 'heuristic',
    category: 'scripts',
    reads: [],
    description: 'Require inline dependency declarations in Python, JavaScript/TypeScript and Ruby scripts of a skill',
    scope: 'skill',
    reference: 'improved',
    messages: {
      noDeps: {
        message:
          "Script '{file}' has no inline dependency declarations. Consider using PEP 723 (# /// script), npm: specifiers, or bundler/inline for self-contained scripts",
      },
    },
  },
  file: {
    kinds: ['script'],
    check({ file: script, report }) {
      // only commands: a module or a test gets its dependencies from the command that runs it
      if (!isRunnableScript(script) || MARKER.test(script.text) || !needsDeclaration(script)) return;
      const name = script.path.split('/').pop()!;
      report({ messageId: 'noDeps', data: { file: name }, at: { file: script.path, line: 1, column: 1 } });
    },
  },
});
