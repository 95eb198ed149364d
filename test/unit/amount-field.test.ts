import t from 'tap';
import { ACTIVE_CURRENCIES, minorUnitDigits } from '../../shared/contracts/iso-4217.js';
import { ValidationError } from '../../shared/errors.js';
import { amountText, minorUnitsOf } from '../../gateway/console/amount-field.js';
import { money } from '../../gateway/console/format.js';

t.test("the console's amount field reads amounts as typed, in the currency's ISO 4217 decimals", async (t) => {
  const cases: [string, string, number | null][] = [
    ['1,250.50', 'USD', 125050],
    ['1250.5', 'usd', 125050],
    ['1 250.50', 'EUR', 125050],
    ['1,000,000', 'USD', 100000000],
    [' 42 ', 'USD', 4200],
    ['0', 'USD', 0],
    ['', 'USD', null],
    ['125,050', 'JPY', 125050],
    ['1.234', 'KWD', 1234],
    ['1.234', 'IQD', 1234],
    ['12.5', 'IRR', 1250],
    ['1.0001', 'CLF', 10001],
  ];
  for (const [typed, currency, expected] of cases) t.equal(minorUnitsOf(typed, currency), expected, `${typed} ${currency}`);
});

t.test('a comma before the decimals, a negative, too many decimals or too large an amount is refused, not misread', async (t) => {
  const refused: [string, string, RegExp][] = [
    // Before: the commas were removed, and 1250,50 USD was stored as 125050.00.
    ['1250,50', 'USD', /such as 1,250\.50, with a dot before at most 2 decimals \(commas only between thousands\)/],
    ['1 250,50', 'EUR', /commas only between thousands/],
    ['12,50', 'USD', /commas only between thousands/],
    ['12 50', 'USD', /commas only between thousands/],
    ['1.005', 'USD', /at most 2 decimals/],
    ['5.5', 'JPY', /such as 1,250, without decimals in this currency/],
    ['-5', 'USD', /must not be negative/],
    ['1e3', 'USD', /such as/],
    ['99999999999999999999', 'USD', /must be at most about 90,071,992,547,410 in this currency/],
  ];
  for (const [typed, currency, message] of refused) {
    t.throws(() => minorUnitsOf(typed, currency), ValidationError, `${typed} ${currency}`);
    t.throws(() => minorUnitsOf(typed, currency), { message }, `${typed} ${currency}: says how to write it`);
  }
});

t.test('money() writes amounts with the decimals they are read with, for every currency a deal takes', async (t) => {
  t.equal(money(125050, 'USD'), '$1,250.50');
  t.equal(money(125050, 'JPY'), '¥125,050');
  t.match(money(1234, 'IQD'), /^IQD\s1\.234$/, 'ISO gives IQD three decimals (ICU none)');
  t.match(money(1250, 'IRR'), /^IRR\s12\.50$/, 'and IRR two (ICU none)');
  for (const currency of ACTIVE_CURRENCIES) {
    const digits = minorUnitDigits(currency);
    const typed = digits === 0 ? '1,250' : `1,250.${'5'.repeat(digits)}`;
    const written = money(minorUnitsOf(typed, currency), currency);
    t.ok(written.includes(typed), `${currency}: ${typed} is written ${written}`);
  }
});

t.test("an edit form shows a deal's amount as the amount field reads it back, for every currency a deal takes", async (t) => {
  t.equal(amountText(125050, 'USD'), '1250.50');
  t.equal(amountText(5, 'USD'), '0.05');
  t.equal(amountText(1234, 'KWD'), '1.234');
  t.equal(amountText(1250, 'JPY'), '1250');
  t.equal(amountText(null, 'USD'), '');
  for (const currency of ACTIVE_CURRENCIES) {
    for (const minor of [0, 7, 125050, Number.MAX_SAFE_INTEGER]) t.equal(minorUnitsOf(amountText(minor, currency), currency), minor, `${minor} ${currency}`);
  }
});
