import t, { type Test } from 'tap';
import { whileHeld } from '../helpers/held-lock.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Contact, Deal, ErrorBody, ListPage } from '../helpers/api-types.js';

/** Contact and deal writes check custom_fields against the workspace's definitions. */

const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'schema:write']));

let phone = 1000;
const newPhone = () => `+1 415 555 ${phone++}`;
const define = async (body: Record<string, unknown>) => {
  const res = await api.post<{ id: string }>('/v1/custom-fields', body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id;
};
const storedFields = async (id: string) =>
  (await stack.db.query<{ custom_fields: Record<string, unknown> }>('select custom_fields from contacts where id = $1', [id]))[0]?.custom_fields;

await define({ object_type: 'contact', key: 'nickname', label: 'Nickname', type: 'text' });
await define({ object_type: 'contact', key: 'score', label: 'Score', type: 'number' });
await define({ object_type: 'contact', key: 'vip', label: 'VIP', type: 'boolean' });
await define({ object_type: 'contact', key: 'birthday', label: 'Birthday', type: 'date' });
await define({ object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['gold', 'silver'] });

async function expectRefused(t: Test, custom_fields: Record<string, unknown>, param: string, message: RegExp) {
  const stored = async () => Number((await stack.db.query<{ n: string }>('select count(*) n from contacts where workspace_id = $1', [ws.workspace.id]))[0]?.n);
  const before = await stored();
  const res = await api.post<ErrorBody>('/v1/contacts', { first_name: 'X', phone: newPhone(), custom_fields });
  t.equal(res.status, 400, `${JSON.stringify(custom_fields)} is refused`);
  t.equal(res.body.error.param, param);
  t.match(res.body.error.message, message);
  t.equal(await stored(), before, 'nothing stored');
}

t.test('text', async (t) => {
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'T', phone: newPhone(), custom_fields: { nickname: 'Ace' } });
  t.equal(ok.status, 201);
  t.equal(ok.body.custom_fields.nickname, 'Ace');
  await expectRefused(t, { nickname: 42 }, 'custom_fields.nickname', /must be text/);
  // A list or an object is no custom field value at all, and the refusal says what one is.
  await expectRefused(t, { nickname: ['Ace'] }, 'custom_fields.nickname', /must be text, a number, true or false, or null/);
  await expectRefused(t, { nickname: { text: 'Ace' } }, 'custom_fields.nickname', /must be text, a number, true or false, or null/);
  // Each control character is six bytes in every JSON copy of the record; tabs and line breaks are text.
  await expectRefused(t, { nickname: 'A\u0007ce' }, 'custom_fields.nickname', /must not contain control characters other than tabs and line breaks/);
  const lines = await api.post<Contact>('/v1/contacts', { first_name: 'L', phone: newPhone(), custom_fields: { nickname: 'Line one\n\tLine two' } });
  t.equal(lines.status, 201);
  t.equal(lines.body.custom_fields.nickname, 'Line one\n\tLine two');
});

t.test('number', async (t) => {
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'N', phone: newPhone(), custom_fields: { score: 4.5 } });
  t.equal(ok.body.custom_fields.score, 4.5);
  await expectRefused(t, { score: '4.5' }, 'custom_fields.score', /must be a number/);
  await expectRefused(t, { score: true }, 'custom_fields.score', /must be a number/);
  // Read from JSON, these arrive rounded (…7000, …992): refused rather than stored as a value nobody sent.
  await expectRefused(t, { score: Number('12345678901234567890') }, 'custom_fields.score', /must be between -9,007,199,254,740,991 and 9,007,199,254,740,991/);
  await expectRefused(t, { score: -(2 ** 53) - 2 }, 'custom_fields.score', /larger numbers cannot be kept exactly/);
  const largest = await api.post<Contact>('/v1/contacts', { first_name: 'N', phone: newPhone(), custom_fields: { score: Number.MAX_SAFE_INTEGER } });
  t.equal(largest.body.custom_fields.score, Number.MAX_SAFE_INTEGER, 'the largest exact integer is kept');
});

t.test('boolean', async (t) => {
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'B', phone: newPhone(), custom_fields: { vip: false } });
  t.equal(ok.body.custom_fields.vip, false);
  await expectRefused(t, { vip: 'yes' }, 'custom_fields.vip', /true or false/);
});

t.test('date', async (t) => {
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'D', phone: newPhone(), custom_fields: { birthday: '1815-12-10' } });
  t.equal(ok.body.custom_fields.birthday, '1815-12-10');
  await expectRefused(t, { birthday: '10/12/1815' }, 'custom_fields.birthday', /YYYY-MM-DD/);
  await expectRefused(t, { birthday: '2026-02-30' }, 'custom_fields.birthday', /real calendar date/);
  await expectRefused(t, { birthday: '0000-01-01' }, 'custom_fields.birthday', /real calendar date/);
  await expectRefused(t, { birthday: '2026-2-3' }, 'custom_fields.birthday', /YYYY-MM-DD/);
  await expectRefused(t, { birthday: '2026-02-03T00:00:00Z' }, 'custom_fields.birthday', /YYYY-MM-DD/);
  await expectRefused(t, { birthday: 20261210 }, 'custom_fields.birthday', /YYYY-MM-DD/);
});

t.test('select: only its options, each named without case or spaces around it and stored as the field defines it', async (t) => {
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'S', phone: newPhone(), custom_fields: { tier: 'gold' } });
  t.equal(ok.body.custom_fields.tier, 'gold');
  await expectRefused(t, { tier: 'bronze' }, 'custom_fields.tier', /one of: gold, silver\.$/);
  // As the import reads a spreadsheet's "Gold": options are unique without case, so it names one.
  const named = await api.post<Contact>('/v1/contacts', { first_name: 'T', phone: newPhone(), custom_fields: { tier: 'Gold' } });
  t.equal(named.status, 201);
  t.equal(named.body.custom_fields.tier, 'gold');
  t.same(await storedFields(named.body.id), { tier: 'gold' });
  const patched = await api.send<Contact>('PATCH', `/v1/contacts/${named.body.id}`, { body: { custom_fields: { tier: ' SILVER ' } } });
  t.equal(patched.status, 200);
  t.same(await storedFields(named.body.id), { tier: 'silver' });
  const unchanged = await api.send<Contact>('PATCH', `/v1/contacts/${named.body.id}`, { body: { custom_fields: { tier: 'Silver' } } });
  t.equal(unchanged.body.updated_at, patched.body.updated_at, 'the option it has, in another case, changes nothing');
});

t.test('unknown keys are refused; every active field shows, null where unset', async (t) => {
  await expectRefused(t, { favourite_colour: 'blue' }, 'custom_fields.favourite_colour', /no contact custom field/);
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'E', phone: newPhone() });
  t.same(ok.body.custom_fields, { nickname: null, score: null, vip: null, birthday: null, tier: null });
  t.same(await storedFields(ok.body.id), {}, 'nulls are not stored');
});

t.test('null clears a value; PATCH merges key by key', async (t) => {
  const c = (await api.post<Contact>('/v1/contacts', { first_name: 'M', phone: newPhone(), custom_fields: { nickname: 'Em', score: 1 } })).body;
  const patched = await api.send<Contact>('PATCH', `/v1/contacts/${c.id}`, { body: { custom_fields: { score: null, vip: true } } });
  t.equal(patched.status, 200);
  t.match(patched.body.custom_fields, { nickname: 'Em', score: null, vip: true });
  t.same(await storedFields(c.id), { nickname: 'Em', vip: true });
  const wrong = await api.send<ErrorBody>('PATCH', `/v1/contacts/${c.id}`, { body: { custom_fields: { score: 'high', nickname: 'Changed' } } });
  t.equal(wrong.status, 400);
  t.same(await storedFields(c.id), { nickname: 'Em', vip: true }, 'a refused change leaves every value as it was');

  // Concurrent changes to different keys both survive: the merge happens in the UPDATE.
  await Promise.all([
    api.send('PATCH', `/v1/contacts/${c.id}`, { body: { custom_fields: { score: 7 } } }),
    api.send('PATCH', `/v1/contacts/${c.id}`, { body: { custom_fields: { tier: 'silver' } } }),
    api.send('PATCH', `/v1/contacts/${c.id}`, { body: { custom_fields: { birthday: '2000-01-01' } } }),
  ]);
  t.same(await storedFields(c.id), { nickname: 'Em', vip: true, score: 7, tier: 'silver', birthday: '2000-01-01' });
});

t.test('required fields', async (t) => {
  const id = await define({ object_type: 'contact', key: 'region', label: 'Region', type: 'select', options: ['EMEA', 'AMER'], required: true });
  await expectRefused(t, {}, 'custom_fields.region', /required/);
  await expectRefused(t, { region: null }, 'custom_fields.region', /required/);
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'R', phone: newPhone(), custom_fields: { region: 'EMEA' } });
  t.equal(ok.status, 201);
  const clear = await api.send<ErrorBody>('PATCH', `/v1/contacts/${ok.body.id}`, { body: { custom_fields: { region: null } } });
  t.equal(clear.status, 400, 'a required value cannot be cleared');
  t.match(clear.body.error.message, /cannot be cleared/);
  await api.send('PATCH', `/v1/custom-fields/${id}`, { body: { required: false } });
  const cleared = await api.send<Contact>('PATCH', `/v1/contacts/${ok.body.id}`, { body: { custom_fields: { region: null } } });
  t.equal(cleared.body.custom_fields.region, null, 'once optional it can');
  await api.send('DELETE', `/v1/custom-fields/${id}`);
});

t.test('a record written before its field was made required can be sent back as read', async (t) => {
  const earlier = (await api.post<Contact>('/v1/contacts', { first_name: 'Early', phone: newPhone() })).body;
  const earlierDeal = (await api.post<Deal>('/v1/deals', { name: 'Early deal' })).body;
  const contactField = await define({ object_type: 'contact', key: 'segment', label: 'Segment', type: 'text', required: true });
  const dealField = await define({ object_type: 'deal', key: 'source', label: 'Source', type: 'text', required: true });
  const read = (await api.get<Contact>(`/v1/contacts/${earlier.id}`)).body;
  t.equal(read.custom_fields.segment, null, 'shown as null');
  // The record as read, with another change: the null it shows clears nothing, so it is no mistake.
  const renamed = await api.send<Contact>('PATCH', `/v1/contacts/${earlier.id}`, { body: { first_name: 'Earlier', custom_fields: read.custom_fields } });
  t.equal(renamed.status, 200, 'a contact sent back with its null required field is taken');
  t.equal(renamed.body.first_name, 'Earlier');
  const readDeal = (await api.get<Deal>(`/v1/deals/${earlierDeal.id}`)).body;
  const dealRenamed = await api.send<Deal>('PATCH', `/v1/deals/${earlierDeal.id}`, { body: { name: 'Earlier deal', custom_fields: readDeal.custom_fields } });
  t.equal(dealRenamed.status, 200, 'so is a deal');
  // Once it holds a value, null would clear it: refused, and nothing changes.
  await api.send('PATCH', `/v1/contacts/${earlier.id}`, { body: { custom_fields: { segment: 'SMB' } } });
  const clear = await api.send<ErrorBody>('PATCH', `/v1/contacts/${earlier.id}`, { body: { first_name: 'Changed', custom_fields: { segment: null } } });
  t.equal(clear.status, 400);
  t.equal(clear.body.error.param, 'custom_fields.segment');
  t.match(clear.body.error.message, /required and cannot be cleared/);
  const after = (await api.get<Contact>(`/v1/contacts/${earlier.id}`)).body;
  t.equal(after.first_name, 'Earlier', 'the refused change changed nothing');
  t.equal(after.custom_fields.segment, 'SMB');
  await api.send('PATCH', `/v1/deals/${earlierDeal.id}`, { body: { custom_fields: { source: 'web' } } });
  const clearDeal = await api.send<ErrorBody>('PATCH', `/v1/deals/${earlierDeal.id}`, { body: { custom_fields: { source: null } } });
  t.equal(clearDeal.status, 400);
  t.equal(clearDeal.body.error.param, 'custom_fields.source');
  await api.send('DELETE', `/v1/custom-fields/${contactField}`);
  await api.send('DELETE', `/v1/custom-fields/${dealField}`);
});

t.test('a required text field takes no blank value: "", spaces or only invisible characters say nothing', async (t) => {
  const id = await define({ object_type: 'contact', key: 'company', label: 'Company', type: 'text', required: true });
  for (const blank of ['', '   ', '\u200b', '\t\n']) await expectRefused(t, { company: blank }, 'custom_fields.company', /required and cannot be empty/);
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'C', phone: newPhone(), custom_fields: { company: ' Acme ' } });
  t.equal(ok.status, 201);
  t.equal(ok.body.custom_fields.company, ' Acme ', 'text is stored as given');
  const blanked = await api.send<ErrorBody>('PATCH', `/v1/contacts/${ok.body.id}`, { body: { custom_fields: { company: '' } } });
  t.equal(blanked.status, 400, 'nor can a PATCH blank it');
  t.equal(blanked.body.error.param, 'custom_fields.company');
  t.same(await storedFields(ok.body.id), { company: ' Acme ' }, 'the stored value is kept');
  await api.send('PATCH', `/v1/custom-fields/${id}`, { body: { required: false } });
  const optional = await api.send<Contact>('PATCH', `/v1/contacts/${ok.body.id}`, { body: { custom_fields: { company: '' } } });
  t.equal(optional.body.custom_fields.company, '', 'an optional text field may hold empty text');
  await api.send('DELETE', `/v1/custom-fields/${id}`);
});

t.test('archived fields: hidden, refused on write, values kept and back on restore', async (t) => {
  const id = await define({ object_type: 'contact', key: 'legacy_id', label: 'Legacy id', type: 'text' });
  const c = (await api.post<Contact>('/v1/contacts', { first_name: 'L', phone: newPhone(), custom_fields: { legacy_id: 'L-1' } })).body;
  await api.send('DELETE', `/v1/custom-fields/${id}`);
  const read = await api.get<Contact>(`/v1/contacts/${c.id}`);
  t.notOk('legacy_id' in read.body.custom_fields, 'hidden from records');
  const listed = await api.get<ListPage<Contact>>('/v1/contacts?limit=100');
  t.ok(listed.body.data.every((x) => !('legacy_id' in x.custom_fields)));
  t.equal((await storedFields(c.id))?.legacy_id, 'L-1', 'the stored value is kept');
  await expectRefused(t, { legacy_id: 'L-2' }, 'custom_fields.legacy_id', /archived/);
  await api.send('PATCH', `/v1/custom-fields/${id}`, { body: { archived: false } });
  t.equal((await api.get<Contact>(`/v1/contacts/${c.id}`)).body.custom_fields.legacy_id, 'L-1', 'restoring brings the value back');
});

t.test("an archived select field's options in use: the 409 says to restore it first, the one way those records can change", async (t) => {
  const id = await define({ object_type: 'deal', key: 'channel', label: 'Channel', type: 'select', options: ['Web', 'Ads'] });
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Channelled', custom_fields: { channel: 'Web' } })).body;
  const active = await api.send<ErrorBody>('PATCH', `/v1/custom-fields/${id}`, { body: { options: ['Ads'] } });
  t.equal(active.status, 409);
  t.match(active.body.error.message, /"Web" \(1 deal\).*or change those records first\.$/, 'an active field: change the records');
  await api.send('DELETE', `/v1/custom-fields/${id}`);
  const refused = await api.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { custom_fields: { channel: 'Ads' } } });
  t.match(refused.body.error.message, /archived and cannot be written/, 'which an archived field refuses');
  const archived = await api.send<ErrorBody>('PATCH', `/v1/custom-fields/${id}`, { body: { options: ['Ads'] } });
  t.equal(archived.status, 409);
  t.equal(archived.body.error.param, 'options');
  // Before: "or change those records first", which the field's archive refuses.
  t.match(archived.body.error.message, /"Web" \(1 deal\).*restore the field \(archived: false\) and change those records first/);
});

t.test('deals are validated against the deal fields', async (t) => {
  await define({ object_type: 'deal', key: 'probability', label: 'Probability', type: 'number', required: true });
  const missing = await api.post<ErrorBody>('/v1/deals', { name: 'No probability' });
  t.equal(missing.status, 400);
  t.equal(missing.body.error.param, 'custom_fields.probability');
  const contactField = await api.post<ErrorBody>('/v1/deals', { name: 'x', custom_fields: { probability: 0.5, tier: 'gold' } });
  t.equal(contactField.body.error.param, 'custom_fields.tier', 'contact fields do not apply to deals');
  const ok = await api.post<Deal>('/v1/deals', { name: 'Likely', custom_fields: { probability: 0.9 } });
  t.equal(ok.status, 201);
  t.same(ok.body.custom_fields, { probability: 0.9 });
  const patched = await api.send<Deal>('PATCH', `/v1/deals/${ok.body.id}`, { body: { custom_fields: { probability: 0.2 } } });
  t.same(patched.body.custom_fields, { probability: 0.2 });
  const wrong = await api.send<ErrorBody>('PATCH', `/v1/deals/${ok.body.id}`, { body: { custom_fields: { probability: 'high' } } });
  t.equal(wrong.status, 400);
});

t.test('a write of a select option racing its removal: the write waits, then is refused', async (t) => {
  const fieldId = await define({ object_type: 'deal', key: 'plan', label: 'Plan', type: 'select', options: ['basic', 'pro'] });
  await define({ object_type: 'contact', key: 'plan', label: 'Plan', type: 'select', options: ['basic', 'pro'] });
  const contactFieldId = (await stack.db.query<{ id: string }>("select id from custom_fields where workspace_id = $1 and object_type = 'contact' and key = 'plan'", [ws.workspace.id]))[0]?.id;
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Planned', custom_fields: { probability: 0.5 } })).body;
  const contact = (await api.post<Contact>('/v1/contacts', { first_name: 'P', phone: newPhone() })).body;
  // The option change as update-custom-field makes it, held open after it counted no record holding "pro".
  const removal = (id: string) => [
    { sql: 'select id from custom_fields where workspace_id = $1 and id = $2 for update', params: [ws.workspace.id, id] },
    { sql: `update custom_fields set options = '["basic"]'::jsonb, updated_at = now() where workspace_id = $1 and id = $2`, params: [ws.workspace.id, id] },
  ];
  for (const [what, id, write, stored] of [
    ['a deal', fieldId, () => api.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { custom_fields: { plan: 'pro' } } }), 'deals'],
    ['a new deal', fieldId, () => api.post<ErrorBody>('/v1/deals', { name: 'Pro deal', custom_fields: { probability: 0.5, plan: 'pro' } }), 'deals'],
    ['a contact', contactFieldId, () => api.send<ErrorBody>('PATCH', `/v1/contacts/${contact.id}`, { body: { custom_fields: { plan: 'pro' } } }), 'contacts'],
    ['a new contact', contactFieldId, () => api.post<ErrorBody>('/v1/contacts', { first_name: 'N', phone: newPhone(), custom_fields: { plan: 'pro' } }), 'contacts'],
  ] as const) {
    await stack.db.query(`update custom_fields set options = '["basic", "pro"]'::jsonb where workspace_id = $1 and id = $2`, [ws.workspace.id, id]);
    const { result, waited } = await whileHeld(stack.db.url, removal(id ?? ''), write);
    t.ok(waited, `${what}: the write waits for the option change`);
    t.equal(result.status, 400, `${what}: then finds the option gone`);
    t.equal(result.body.error.param, 'custom_fields.plan');
    const holders = await stack.db.query(`select 1 from ${stored} where workspace_id = $1 and custom_fields ->> 'plan' = 'pro'`, [ws.workspace.id]);
    t.equal(holders.length, 0, `${what}: no record holds the removed option`);
  }
});
