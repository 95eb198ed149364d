import { minorUnitDigits } from '../../shared/contracts/iso-4217.js';
import { ValidationError } from '../../shared/errors.js';

/** Whole digits as people type them, with commas (or spaces) only between groups of three: 1,250 and 1 250 and 1250, not 1250,50. */
export const GROUPED_DIGITS = String.raw`(\d{1,3}(?:[, ]\d{3})+|\d+)`;
const AMOUNT = new RegExp(String.raw`^${GROUPED_DIGITS}(?:\.(\d*))?$`);

/**
 * An amount as people type it ("1,250.50" in USD) as the API's integer minor units (125050),
 * the inverse of format.ts's money(); blank is none. A comma before the decimals ("1250,50",
 * as many countries write it) is refused, not read as a thousands separator (which stored
 * 125050.00); so is a number the currency cannot hold (three decimals in USD, any in JPY).
 */
export function minorUnitsOf(typed: string, currency: string): number | null {
  const text = typed.trim();
  if (text === '') return null;
  const decimals = minorUnitDigits(currency.trim().toUpperCase());
  const example = decimals === 0 ? '1,250' : `1,250.${'5'.padEnd(decimals, '0')}`;
  if (text.startsWith('-')) throw new ValidationError('amount: must not be negative.', 'amount');
  const match = AMOUNT.exec(text);
  const [whole, fraction = ''] = match ? [match[1]!.replace(/[, ]/g, ''), match[2]] : [];
  if (whole === undefined || fraction.length > decimals) {
    const how = decimals === 0 ? 'without decimals in this currency' : `with a dot before at most ${decimals} decimals`;
    throw new ValidationError(`amount: must be a number such as ${example}, ${how} (commas only between thousands).`, 'amount');
  }
  const minorUnits = Number(whole + fraction.padEnd(decimals, '0'));
  if (!Number.isSafeInteger(minorUnits)) {
    const largest = (Number.MAX_SAFE_INTEGER / 10 ** decimals).toLocaleString('en-US', { maximumFractionDigits: 0 });
    throw new ValidationError(`amount: must be at most about ${largest} in this currency.`, 'amount');
  }
  return minorUnits;
}

/** Minor units as the amount field types them, the inverse of {@link minorUnitsOf} (125050 USD: 1250.50); none is empty. */
export function amountText(minorUnits: number | null, currency: string | null): string {
  if (minorUnits === null) return '';
  const decimals = currency === null ? 0 : minorUnitDigits(currency);
  const digits = String(minorUnits).padStart(decimals + 1, '0');
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
