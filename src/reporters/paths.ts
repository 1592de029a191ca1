/** How a project-relative path is shown: joined onto the root exactly as the user typed it. */
import { posix } from 'node:path';

export function displayPath(displayRoot: string, file: string): string {
  const root = displayRoot.replace(/\\/g, '/');
  if (file === '') return posix.normalize(root);
  return posix.join(root, file);
}
