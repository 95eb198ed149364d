import { domainToASCII, domainToUnicode } from 'node:url';
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

/**
 * An address as stored and compared: Unicode's composed form (so é typed two ways is one address),
 * lower-cased, and the domain in its Unicode form as IDNA maps it: info@xn--mller-kva.de and
 * info@müller.de are one mailbox, stored once as the latter (and full-width ｃ.com as c.com).
 */
export function canonicalEmail(text: string): string {
  const lower = text.normalize('NFC').toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return lower;
  // A domain IDNA refuses is left as typed, for isEmailAddress to refuse.
  const domain = domainToASCII(lower.slice(at + 1)) ? domainToUnicode(lower.slice(at + 1)) : '';
  return domain ? `${lower.slice(0, at)}@${domain}` : lower;
}

/**
 * The stored forms a canonical address may have: itself, and with its domain in ASCII (punycode),
 * as contacts written before the domain was stored in Unicode hold it.
 */
export function storedEmailForms(canonical: string): string[] {
  const at = canonical.lastIndexOf('@');
  const ascii = at > 0 ? domainToASCII(canonical.slice(at + 1)) : '';
  return ascii && ascii !== canonical.slice(at + 1) ? [canonical, `${canonical.slice(0, at)}@${ascii}`] : [canonical];
}

/** RFC 5321: a mailbox's local part is at most 64 octets; a longer one cannot be delivered to. */
function localPartFits(address: string): boolean {
  const at = address.lastIndexOf('@');
  return at <= 0 || Buffer.byteLength(address.slice(0, at), 'utf8') <= 64;
}

/** A contact's e-mail address, as typed, in its canonical form. */
export const EmailAddress = z
  .string()
  .transform(canonicalEmail)
  .refine(localPartFits, { message: 'must be an e-mail address: the part before @ is at most 64 characters (bytes in UTF-8)', abort: true })
  .refine(isEmailAddress, { message: 'must be an e-mail address' })
  .meta({ format: 'idn-email' });
