/** Every markdown file of a project, each once, in a stable order. */
import type { Project, FileModel } from './types.js';

const memo = new WeakMap<Project, readonly FileModel[]>();

export function markdownFiles(project: Project): readonly FileModel[] {
  let files = memo.get(project);
  if (files === undefined) memo.set(project, (files = collect(project)));
  return files;
}

/** (one list per model: the project phase asks for it in several rules, and a model is never changed) */
function collect(project: Project): FileModel[] {
  const seen = new Set<string>();
  const out: FileModel[] = [];
  const add = (f: FileModel | null | undefined) => {
    if (f && !seen.has(f.path)) {
      seen.add(f.path);
      out.push(f);
    }
  };
  for (const s of project.skills) {
    add(s.skillFile);
    add(s.loop?.file);
    add(s.legacyHandoffs?.file);
    for (const r of s.references.values()) add(r.file);
  }
  add(project.readme);
  return out;
}
