import { ValidationError } from '../../shared/errors.js';

/** The decimals a currency is written with (JPY none, USD two); two for a code the runtime does not know, which the schema then refuses. */
function decimalsOf(currency: string): number {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An amount as people type it ("1,250.50" in USD) as the API's integer minor units (125050),
 * the inverse of format.ts's money(); blank is none. A number the currency cannot hold (three
 * decimals in USD, any in JPY) is refused rather than rounded.
 */
export function minorUnitsOf(typed: string, currency: string): number | null {
  const text = typed.replace(/[,\s]/g, '');
  if (text === '') return null;
  const decimals = decimalsOf(currency.trim().toUpperCase());
  const match = /^(\d{1,16})(?:\.(\d*))?$/.exec(text);
  const fraction = match?.[2] ?? '';
  if (!match?.[1] || fraction.length > decimals) {
    const example = decimals === 0 ? '1250' : `1250.${'5'.padEnd(decimals, '0')}`;
    throw new ValidationError(`amount: must be a number such as ${example}${decimals === 0 ? ', without decimals in this currency' : `, with at most ${decimals} decimals`}`, 'amount');
  }
  return Number(match[1] + fraction.padEnd(decimals, '0'));
}
