/**
 * The canonical LOOP.md sections of `canonical_loop_sections`, de-duplicated by sectionKey() (so
 * matching is case- and space-insensitive), in configured order.
 */
import type { Config } from '../../config/schema.js';
import { sectionKey } from '../../util/text.js';

export interface CanonicalSection {
  /** the name as configured (trimmed, single spaces) */
  name: string;
  key: string;
  /** position in the canonical order (0-based) */
  index: number;
}

export function canonicalLoopSections(config: Config): CanonicalSection[] {
  const out: CanonicalSection[] = [];
  const seen = new Set<string>();
  for (const raw of config.canonical_loop_sections) {
    const key = sectionKey(raw);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push({ name: raw.trim().replace(/\s+/g, ' '), key, index: out.length });
  }
  return out;
}

/** Key of the section that holds the transition DSL. */
export const TRANSITION_SECTION_KEY = sectionKey('State Transition Rule');
