import t from 'tap';
import type { Principal } from '../../shared/contracts/call-context.js';
import { fingerprintOf } from '../../workers/runtime/idempotency.js';

const user: Principal = { type: 'user', id: 'usr_A', scopes: [] };

t.test('the order of keys does not change the fingerprint, at any depth', async (t) => {
  const a = fingerprintOf('crm.contacts.create', { first_name: 'Ada', custom_fields: { tier: 'gold', seats: 3 } }, user);
  const b = fingerprintOf('crm.contacts.create', { custom_fields: { seats: 3, tier: 'gold' }, first_name: 'Ada' }, user);
  t.equal(a, b);
});

t.test('a different value, array order or caller does', async (t) => {
  const base = fingerprintOf('crm.contacts.create', { tags: ['a', 'b'], custom_fields: { tier: 'gold' } }, user);
  t.not(fingerprintOf('crm.contacts.create', { tags: ['a', 'b'], custom_fields: { tier: 'silver' } }, user), base);
  t.not(fingerprintOf('crm.contacts.create', { tags: ['b', 'a'], custom_fields: { tier: 'gold' } }, user), base);
  t.not(fingerprintOf('crm.contacts.create', { tags: ['a', 'b'], custom_fields: { tier: 'gold' } }, { ...user, id: 'usr_B' }), base);
});
