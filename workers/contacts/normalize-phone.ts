import { parsePhoneNumberWithError, ParseError, type CountryCode } from 'libphonenumber-js/max';
import { ValidationError } from '../../shared/errors.js';

/**
 * Parses a phone number written in any common format and returns it in E.164.
 * A number without a country code is read in the workspace's default country;
 * without one, it is refused rather than guessed.
 */
export function normalizePhone(input: string, defaultCountry: string | null, param = 'phone'): string {
  const text = input.trim();
  // Where the number starts, as libphonenumber reads it: past "tel:", "(" in "(+44) 20…", or the
  // invisible direction marks that a number copied from a chat or a signature carries.
  const number = text.slice(Math.max(0, text.search(/[+\d]/)));
  const international = number.startsWith('+') || number.startsWith('00');
  if (!international && !defaultCountry) {
    throw new ValidationError(
      `${param}: "${text}" has no country code and the workspace has no default_country. Write it as +<country code> <number>.`,
      param,
    );
  }
  let parsed;
  try {
    parsed = parsePhoneNumberWithError(number.startsWith('00') ? `+${number.slice(2)}` : text, {
      defaultCountry: (defaultCountry ?? undefined) as CountryCode | undefined,
    });
  } catch (error) {
    const reason = error instanceof ParseError ? error.message.toLowerCase().replace(/_/g, ' ') : 'not a phone number';
    throw new ValidationError(`${param}: "${text}" is not a phone number (${reason}).`, param);
  }
  if (parsed.ext) throw new ValidationError(`${param}: extensions are not supported; store the main number.`, param);
  if (!parsed.isValid()) throw new ValidationError(`${param}: "${text}" is not a valid phone number.`, param);
  return parsed.number;
}
