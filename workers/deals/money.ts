import { ValidationError } from '../../shared/errors.js';

/** An amount is meaningless without its currency. */
export function requireCurrencyWithAmount(amount: number | null | undefined, currency: string | null | undefined): void {
  if (amount !== null && amount !== undefined && (currency === null || currency === undefined)) {
    throw new ValidationError('currency: required when the deal has an amount (ISO 4217, e.g. USD).', 'currency');
  }
}

/** A sum of amounts as Postgres wrote it (numeric digits) → the contract's AmountSum: a number while it is exact, else the digits. */
export function amountSum(digits: string): number | string {
  const sum = Number(digits);
  return Number.isSafeInteger(sum) ? sum : digits;
}
