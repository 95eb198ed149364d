import { withdrawnCurrencyProblem } from '../../shared/contracts/iso-4217.js';
import { ValidationError } from '../../shared/errors.js';

/** A withdrawn currency code is refused, except the one the deal already has (`kept`), so a deal read can be sent back as it is. */
export function refuseWithdrawnCurrency(currency: string | null | undefined, kept: string | null): void {
  if (currency === null || currency === undefined || currency === kept) return;
  const problem = withdrawnCurrencyProblem(currency);
  if (problem) throw new ValidationError(`currency: ${problem}.`, 'currency');
}

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
