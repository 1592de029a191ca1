/** The config file name and the error for a config the user must fix (no YAML or schema code here). */

export const CONFIG_FILE = '.loopkit.yaml';

export interface ConfigIssue {
  line: number | null;
  column: number | null;
  field: string | null;
  detail: string;
}

/** A config the user must fix; every issue is located (file:line:col) when the place is known. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];
  constructor(
    readonly file: string,
    issues: ConfigIssue | ConfigIssue[],
  ) {
    const list = Array.isArray(issues) ? issues : [issues];
    super(list.map((i) => formatIssue(file, i)).join('\n'));
    this.issues = list;
    this.name = 'ConfigError';
  }
}

function formatIssue(file: string, i: ConfigIssue): string {
  const where = i.line === null ? file : `${file}:${i.line}:${i.column ?? 1}`;
  return `${where}: ${i.field ? `${i.field}: ` : ''}${i.detail}`;
}
