/** Reading `.loopkit.yaml` (the bytes only: parsing and validation are config/load.ts). */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeUtf8 } from '../util/text.js';
import { CONFIG_FILE, ConfigError } from './errors.js';

/** The config file of a project: its name and text, or no file (text null: the defaults apply). */
export interface ConfigSource {
  file: string;
  text: string | null;
}

export function readConfigFile(root: string): ConfigSource {
  const abs = join(root, CONFIG_FILE);
  let st;
  try {
    st = statSync(abs);
  } catch {
    return { file: CONFIG_FILE, text: null };
  }
  const fail = (detail: string) => new ConfigError(CONFIG_FILE, { line: null, column: null, field: null, detail });
  if (!st.isFile()) throw fail('is not a regular file');
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    throw fail(`cannot be read: ${(e as Error).message}`);
  }
  const text = decodeUtf8(bytes);
  if (text === null) throw fail('is not valid UTF-8 text');
  return { file: CONFIG_FILE, text };
}
