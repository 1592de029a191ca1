/** Where a setting is written in `.loopkit.yaml`, for diagnostics about the configuration. */
import { CONFIG_FILE } from '../../config/errors.js';
import type { Place } from '../../engine/rule.js';
import type { Project } from '../../model/types.js';

/**
 * The place of a config key given by its dotted path (`deskcheck_state`, `enforced_states.0.name`).
 * Falls back to the closest recorded parent key, then to the file itself.
 */
export function configKeyPlace(project: Project, path: string): Place {
  const file = project.configFile ?? CONFIG_FILE;
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const pos = project.configPositions.get(parts.slice(0, n).join('.'));
    if (pos) return { file, line: pos.line, column: pos.column };
  }
  return { file, line: null, column: null };
}
