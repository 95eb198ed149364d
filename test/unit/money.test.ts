import t from 'tap';
import { CreateDealInput, UpdateDealFields } from '../../shared/contracts/deals.js';
import { ValidationError } from '../../shared/errors.js';
import { refuseWithdrawnCurrency, requireCurrencyWithAmount } from '../../workers/deals/money.js';

const deal = (money: Record<string, unknown>) => CreateDealInput.safeParse({ name: 'Deal', ...money });

t.test('amounts are whole minor units from 0 to the largest safe integer', async (t) => {
  t.ok(deal({ amount: 0, currency: 'USD' }).success);
  t.ok(deal({ amount: Number.MAX_SAFE_INTEGER, currency: 'USD' }).success);
  t.ok(deal({ amount: null, currency: null }).success, 'no amount');
  for (const amount of [12.5, -1, Number.MAX_SAFE_INTEGER + 1, '100', Number.NaN, Infinity]) {
    t.notOk(deal({ amount, currency: 'USD' }).success, `${String(amount)} is refused`);
  }
});

t.test('currencies are ISO 4217 codes, normalised to upper case', async (t) => {
  t.equal(deal({ amount: 100, currency: ' eur ' }).data?.currency, 'EUR');
  t.equal(UpdateDealFields.parse({ currency: 'jpy' }).currency, 'JPY');
  for (const currency of ['EURO', 'XYZ', 'US', '', 'U$D']) t.notOk(deal({ amount: 1, currency }).success, `${currency} is refused`);
});

t.test('an amount needs its currency', async (t) => {
  t.throws(() => requireCurrencyWithAmount(100, null), ValidationError);
  t.throws(() => requireCurrencyWithAmount(0, undefined), ValidationError, 'zero is an amount too');
  t.doesNotThrow(() => requireCurrencyWithAmount(100, 'USD'));
  t.doesNotThrow(() => requireCurrencyWithAmount(null, null), 'no amount, no currency');
  t.doesNotThrow(() => requireCurrencyWithAmount(undefined, 'USD'), 'a currency alone is allowed');
});

// Our own list, not ICU's: Node 22 refused VED and took HRK, and the set moved with each Node release.
t.test('currencies are the active codes of ISO 4217, whatever the Node version', async (t) => {
  for (const currency of ['VED', 'VES', 'XCG', 'ZWG', 'SLE', 'CHE', 'XAU', 'XDR']) {
    t.equal(deal({ amount: 1, currency }).data?.currency, currency, `${currency} is taken`);
  }
  for (const [currency, instead] of [['HRK', 'EUR'], ['ZWL', 'ZWG'], ['SLL', 'SLE'], ['CUC', 'CUP'], ['MRO', 'MRU']]) {
    t.ok(deal({ amount: 1, currency: currency! }).success, `${currency!} (withdrawn) is a known code: the worker decides`);
    t.throws(() => refuseWithdrawnCurrency(currency!, null), { message: `currency: must be an active ISO 4217 currency code: ${currency!} was withdrawn, use ${instead!}.` }, `${currency!} is refused for a new deal`);
    t.throws(() => refuseWithdrawnCurrency(currency!, 'EUR'), ValidationError, `${currency!} is refused as a change`);
    t.doesNotThrow(() => refuseWithdrawnCurrency(currency!, currency!), `${currency!} sent back on a deal that has it`);
  }
  for (const currency of ['XTS', 'XXX']) t.notOk(deal({ amount: 1, currency }).success, `${currency} is not money`);
});
