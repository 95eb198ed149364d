import t from 'tap';
import { ValidationError } from '../../shared/errors.js';
import { normalizePhone } from '../../workers/contacts/normalize-phone.js';

t.test('formats that mean the same number give the same E.164', async (t) => {
  for (const [input, country] of [
    ['+1 415 555 0100', null],
    ['(415) 555-0100', 'US'],
    ['415.555.0100', 'US'],
    ['+1-415-555-0100', 'GB'],
    ['0014155550100', null],
  ] as const) {
    t.equal(normalizePhone(input, country), '+14155550100', `${input} in ${country}`);
  }
  t.equal(normalizePhone('020 7946 0958', 'GB'), '+442079460958');
});

t.test('a country code after a leading "(", "tel:" or invisible marks counts, with or without a default country', async (t) => {
  for (const input of ['(+44) 20 7946 0958', 'tel:+44-20-7946-0958', '\u202a+44 20 7946 0958\u202c', '\u200e+44 20 7946 0958', '(0044) 20 7946 0958']) {
    for (const country of [null, 'US']) t.equal(normalizePhone(input, country), '+442079460958', `${JSON.stringify(input)} in ${country}`);
  }
});

t.test('refused: no country code without a default, invalid, extensions, junk', async (t) => {
  for (const [input, country] of [
    ['(415) 555-0100', null],
    ['+1 555 555 5555', null],
    ['12345', 'US'],
    ['phone', 'US'],
    ['+1 415 555 0100 ext 5', null],
    ['', 'US'],
  ] as const) {
    t.throws(() => normalizePhone(input, country), ValidationError, `${input} in ${country}`);
  }
});
