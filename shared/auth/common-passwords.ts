import { createRequire } from 'node:module';
import type * as LanguageCommon from '@zxcvbn-ts/language-common';

let common: Set<string> | null = null;

/**
 * Whether a password is on zxcvbn-ts's list of the ~49,000 most common passwords (from
 * breach corpora), compared case-insensitively: these are what guessing tries first, so
 * no length rule makes them safe. The package (which decompresses its dictionaries when
 * loaded, a cost every process would pay at start) and the set are loaded on first use.
 */
export function isCommonPassword(password: string): boolean {
  if (!common) {
    const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as typeof LanguageCommon;
    common = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }
  return common.has(password.trim().toLowerCase());
}
