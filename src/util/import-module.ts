/**
 * Import an ES module (a project's plugin) by its file URL, from any of loopkit's programs. The
 * CommonJS programs (dist/cli.cjs, action/dist/loopkit.cjs) are bundled with `import()` compiled to
 * `require()`, which cannot load an ES module on Node 20, and dist/cli.cjs runs as a script V8
 * compiled (src/boot.ts) whose own code cannot import at all: their entries install an importer made
 * in a module of their own (installImporter). The ES module programs, a worker thread and the tests
 * import as any module does.
 */
type Importer = (url: string) => Promise<unknown>;

const HOOK = Symbol.for('loopkit.import');

export function importModule(url: string): Promise<unknown> {
  const hook = (globalThis as Record<symbol, unknown>)[HOOK] as Importer | undefined;
  return hook ? hook(url) : import(url);
}

/**
 * Install the importer of a CommonJS program: call it from the program's entry, a module Node loads
 * itself (never from code V8 compiled as a script, which cannot import).
 */
export function installImporter(): void {
  // a real import(), which the bundler would compile to require()
  (globalThis as Record<symbol, unknown>)[HOOK] ??= new Function('url', 'return import(url)') as Importer;
}
