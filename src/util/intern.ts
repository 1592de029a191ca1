/**
 * String interning for data kept for the whole run: every string value of `value` (deeply, in
 * arrays and plain objects) is replaced by the one instance `table` holds for it. A large project
 * repeats the same short strings thousands of times (section titles on every step and transition,
 * state names, frontmatter keys); after a structured clone or a JSON parse each is a copy.
 */
export function intern<T>(value: T, table: Map<string, string>, depth = 0): T {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i] as unknown;
      if (typeof v === 'string') value[i] = canonical(v, table);
      else if (v !== null && typeof v === 'object') intern(v, table, depth + 1);
    }
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    const v = obj[key];
    if (typeof v === 'string') obj[key] = canonical(v, table);
    else if (v !== null && typeof v === 'object') intern(v, table, depth + 1);
  }
  return value;
}

/** Strings longer than this are rarely repeated: kept as they are. */
const MAX_INTERNED = 256;

function canonical(s: string, table: Map<string, string>): string {
  if (s.length > MAX_INTERNED) return s;
  const hit = table.get(s);
  if (hit !== undefined) return hit;
  table.set(s, s);
  return s;
}
