/**
 * loopkit's command line as the committed program action/dist/loopkit.cjs: the pre-commit hook
 * runs it (`language: script`, nothing to install), the Action's entry requires it for `main`. Run as
 * a program, it is `loopkit <args>` (as bin/loopkit.js, without V8's code cache).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from '../cli.js';
import { installImporter } from '../util/import-module.js';

export { main };

// a project's plugins are ES modules: this program's own import() is compiled to require() (util/import-module.ts)
installImporter();

function runsAsProgram(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (runsAsProgram()) {
  void main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    ownProcess: true,
  }).then((code) => {
    process.exitCode = code;
  });
}
