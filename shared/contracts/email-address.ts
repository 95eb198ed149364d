import { domainToASCII } from 'node:url';
import { z } from 'zod';

const ASCII_EMAIL = z.email();

/**
 * Whether `text` is an e-mail address, internationalised ones included (info@müller.de,
 * josé@example.com; RFC 6531). zod's own pattern takes ASCII only, and its Unicode one takes
 * a@b and a@b..com. So the address is checked as zod checks an ASCII one: the domain in its
 * ASCII (punycode) form, each non-ASCII letter of the local part standing for an ASCII one.
 */
export function isEmailAddress(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  const local = text.slice(0, at);
  const domain = domainToASCII(text.slice(at + 1));
  if (!domain || /[\s\p{Cc}\p{Cf}]/u.test(local)) return false;
  // zod wants a top-level domain of letters: an internationalised one (xn--…) stands in as such.
  const tld = domain.replace(/\.xn--[a-z0-9-]+$/, '.idn');
  return ASCII_EMAIL.safeParse(`${local.replace(/[^\p{ASCII}]/gu, 'a')}@${tld}`).success;
}

/** An address as stored and compared: Unicode's composed form (so é typed two ways is one address), lower-cased. */
export function canonicalEmail(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/** A contact's e-mail address, as typed, in its canonical form. */
export const EmailAddress = z
  .string()
  .transform(canonicalEmail)
  .refine(isEmailAddress, { message: 'must be an e-mail address' })
  .meta({ format: 'idn-email' });
