import t from 'tap';
import { z } from 'zod';
import { defineOperation } from '../../shared/bus/operation.js';
import { getContact, listContacts, type Contact } from '../../shared/contracts/contacts.js';
import { contractOutputProblem } from '../../workers/runtime/contract-output.js';

/**
 * With VALIDATE_REPLIES a worker checks each result against its operation's output schema
 * before it sends it; production sends the handler's result as it is, and the gateway passes
 * those bytes on to the client unparsed. So a result that parsing would change (a key the
 * contract does not declare, a value a transform or a default would rewrite) must be reported
 * as surely as one that fails to parse: otherwise it reaches clients in production.
 */

const contact: Contact = {
  object: 'contact',
  id: 'con_01JABCDEFGHJKMNPQRSTVWXYZ0',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.test',
  phone: '+14155550100',
  status: 'active',
  custom_fields: { lead_source: 'web', score: 7, vip: true, renewal: null },
  owner_id: null,
  created_at: '2026-01-31T10:00:00.000Z',
  updated_at: '2026-01-31T10:00:00.000Z',
};

const page = {
  data: [contact],
  limit: 25,
  has_more: false,
  next_cursor: null,
  applied_range: { created_after: null, created_before: null, time_zone: 'UTC' },
};

t.test('a result that matches its contract: no problem', async (t) => {
  t.equal(contractOutputProblem(getContact, contact), null, 'a contact');
  t.equal(contractOutputProblem(listContacts, page), null, 'a page of contacts');
  t.equal(contractOutputProblem(listContacts, { ...page, data: [] }), null, 'an empty page');
  const reordered = Object.fromEntries(Object.entries(contact).reverse());
  t.equal(contractOutputProblem(getContact, reordered), null, 'the order of the keys does not matter');
  t.equal(contractOutputProblem(getContact, { ...contact, custom_fields: {} }), null, 'custom fields are a record: any keys of it are data');
});

t.test('a result that does not parse: the problem names the field', async (t) => {
  const { first_name: _first, ...withoutFirstName } = contact;
  t.match(contractOutputProblem(getContact, withoutFirstName), /first_name/, 'a required field missing');
  t.match(contractOutputProblem(getContact, { ...contact, last_name: undefined }), /last_name/, 'a nullable field left undefined instead of null');
  t.match(contractOutputProblem(getContact, { ...contact, phone: 14155550100 }), /phone/, 'a number for a string');
  t.match(contractOutputProblem(getContact, { ...contact, status: 'deleted' }), /status/, 'a value outside an enum');
  t.match(contractOutputProblem(getContact, { ...contact, object: 'deal' }), /object/, 'another literal');
  t.match(contractOutputProblem(getContact, { ...contact, created_at: new Date(contact.created_at) }), /created_at/, 'a Date where the contract says text');
  t.match(contractOutputProblem(listContacts, { ...page, limit: 2.5 }), /limit/, 'a page limit that is no whole number');
  t.match(contractOutputProblem(listContacts, { ...page, data: [{ ...contact, email: 42 }] }), /email/, 'a row of a page with a wrong type');
  t.match(contractOutputProblem(listContacts, { data: [contact], limit: 25, has_more: false, next_cursor: null }), /applied_range/, 'a list without its applied range');
  t.not(contractOutputProblem(getContact, null), null, 'no result at all');
});

t.test('keys the contract does not declare are reported: the schema would strip them, production would send them', async (t) => {
  const leaked = contractOutputProblem(getContact, { workspace_id: 'ws_01JABCDEFGHJKMNPQRSTVWXYZ0', ...contact });
  t.match(leaked, /more or other than the contract says/, 'an extra key on a contact');
  t.match(leaked, /workspace_id/, 'and the problem shows it');
  t.match(
    contractOutputProblem(listContacts, { ...page, data: [{ password_hash: 'x', ...contact }, contact] }),
    /more or other than the contract says.*password_hash/,
    'an extra key on one row of a page',
  );
  // The problem names where, never the value (it is logged, and a value may be a secret).
  const later = contractOutputProblem(listContacts, { ...page, data: [contact, { ...contact, password_hash: 'secret-hash-value' }] });
  t.match(later, /^more or other than the contract says, in: data\[1\]\.password_hash$/, 'on a later row too');
  t.notMatch(later, /secret-hash-value/, 'without its value');
  t.match(contractOutputProblem(listContacts, { ...page, applied_range: { ...page.applied_range, settings_version: 3 } }), /settings_version/, 'an extra key in a nested object');
  t.match(contractOutputProblem(listContacts, { ...page, total: 1 }), /more or other than the contract says/, 'an extra key beside the page');
  t.equal(contractOutputProblem(getContact, { ...contact, workspace_id: undefined }), null, 'a key whose value is undefined is not sent, so it is not extra');
});

t.test('a result that a transform or a default would change is reported: production sends it untransformed', async (t) => {
  const probe = defineOperation({
    worker: 'contacts',
    resource: 'contract-probes',
    verb: 'get',
    input: z.object({}),
    output: z.object({
      email: z.string().transform((s) => s.toLowerCase()),
      tags: z.array(z.string()).default([]),
    }),
  });
  t.equal(contractOutputProblem(probe, { email: 'ada@example.test', tags: ['vip'] }), null, 'what parsing leaves unchanged passes');
  t.match(contractOutputProblem(probe, { email: 'Ada@Example.test', tags: [] }), /more or other than the contract says/, 'a value the transform would rewrite');
  t.match(contractOutputProblem(probe, { email: 'ada@example.test' }), /more or other than the contract says/, 'a field only the default would fill in');
  t.match(contractOutputProblem(probe, { email: 42, tags: [] }), /email/, 'and a value the transform never gets to still fails to parse');
});
