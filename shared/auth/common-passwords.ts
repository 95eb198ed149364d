import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | null = null;

/**
 * Whether a password is on zxcvbn-ts's list of the ~49,000 most common passwords (from
 * breach corpora), compared case-insensitively: these are what guessing tries first, so
 * no length rule makes them safe. The set is built on first use.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.trim().toLowerCase());
}
