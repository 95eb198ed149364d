import { randomInt } from 'node:crypto';

/** No look-alikes (0/O, 1/l/I): easy to read out. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LENGTH = 18;

/**
 * An invitation's password: 18 characters drawn uniformly (randomInt, not a byte modulo
 * 55, which made the first 36 characters a quarter likelier than the rest), about 104 bits.
 */
export function temporaryPassword(): string {
  return Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** The characters it draws from, each equally likely. */
export const TEMPORARY_PASSWORD_ALPHABET = ALPHABET;
