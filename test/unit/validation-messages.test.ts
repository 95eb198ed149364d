import t from 'tap';
import { z } from 'zod';
import { CreateContactInput, UpdateContactFields } from '../../shared/contracts/contacts.js';
import { CreateDealInput } from '../../shared/contracts/deals.js';
import { CreateTokenInput } from '../../shared/contracts/tokens.js';
import { inviteMember, updateMember } from '../../shared/contracts/members.js';
import { validationErrorFrom } from '../../shared/errors.js';

/** The 400s that name a field say what is wrong with it in words a client developer reads at once. */
function messageFor(schema: z.ZodType, value: unknown): { message: string; param?: string } {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a refusal');
  const error = validationErrorFrom(parsed.error);
  return { message: error.message, param: error.details.param };
}

t.test('a required field left out is "is required", not the type it was expected to have', async (t) => {
  t.same(messageFor(CreateContactInput, { phone: '+14155550100' }), { message: 'first_name: is required', param: 'first_name' });
  t.same(messageFor(CreateContactInput, { first_name: 'Ada' }), { message: 'phone: is required', param: 'phone' });
  t.same(messageFor(z.object({ a: z.object({ b: z.number() }) }), { a: {} }), { message: 'a.b: is required', param: 'a.b' });
});

t.test('a field of the wrong type says the type in words, not zod\'s "Invalid input: expected string, received number"', async (t) => {
  t.same(messageFor(CreateContactInput, { first_name: 42, phone: '+14155550100' }), { message: 'first_name: must be text, not a number', param: 'first_name' });
  t.same(messageFor(z.object({ n: z.number() }), { n: '3' }), { message: 'n: must be a number, not text', param: 'n' });
  t.same(messageFor(z.object({ b: z.boolean() }), { b: 'yes' }), { message: 'b: must be true or false, not text', param: 'b' });
  t.same(messageFor(z.object({ l: z.array(z.string()) }), { l: 'x' }), { message: 'l: must be a list, not text', param: 'l' });
  t.same(messageFor(z.object({ o: z.object({}) }), { o: [] }), { message: 'o: must be an object, not a list', param: 'o' });
  t.same(messageFor(z.object({ i: z.number().int() }), { i: 1.5 }), { message: 'i: must be a whole number', param: 'i' }, '1.5 is a number, only not a whole one');
  t.match(messageFor(z.object({ d: z.date() }), { d: 'x' }).message, /^d: Invalid input: expected date/, 'a type JSON has no word for keeps zod\'s message');
});

t.test('sizes are said in words, not zod\'s "Too big: expected string to have <=64 characters"', async (t) => {
  t.same(messageFor(z.object({ id: z.string().max(64) }), { id: 'x'.repeat(65) }), { message: 'id: must be at most 64 characters', param: 'id' });
  t.same(messageFor(z.object({ s: z.string().min(3) }), { s: 'ab' }), { message: 's: must be at least 3 characters', param: 's' });
  t.same(messageFor(z.object({ s: z.string().min(1) }), { s: '' }), { message: 's: must not be empty', param: 's' });
  t.same(messageFor(z.object({ l: z.array(z.number()).max(2) }), { l: [1, 2, 3] }), { message: 'l: must have at most 2 items', param: 'l' });
  t.same(messageFor(z.object({ l: z.array(z.number()).min(1) }), { l: [] }), { message: 'l: must not be an empty list', param: 'l' });
  t.same(messageFor(z.object({ n: z.number().int().min(1).max(1000) }), { n: 5000 }), { message: 'n: must be at most 1,000', param: 'n' });
  t.same(messageFor(z.object({ n: z.number().positive() }), { n: 0 }), { message: 'n: must be greater than 0', param: 'n' });
  t.same(messageFor(z.object({ s: z.string().max(5, 'is too long for a name') }), { s: 'abcdefg' }), { message: 's: is too long for a name', param: 's' }, "a schema's own message is kept");
});

t.test('a token name must show something: not only invisible characters, which list as a blank row', async (t) => {
  t.same(messageFor(CreateTokenInput, { name: '\u200b', scopes: ['contacts:read'] }), {
    message: 'name: must contain visible text, not only spaces or invisible characters',
    param: 'name',
  });
  t.same(messageFor(CreateTokenInput, { name: '  ', scopes: ['contacts:read'] }), { message: 'name: is required', param: 'name' }, 'blank is still "is required"');
  t.ok(CreateTokenInput.safeParse({ name: 'Zapier \u200bsync', scopes: ['contacts:read'] }).success, 'one among visible ones is fine');
});

t.test('a member with no permission ticked is told so in words, not "Too small: expected array to have >=1 items"', async (t) => {
  const expected = { message: 'permissions: choose at least one permission', param: 'permissions' };
  t.same(messageFor(inviteMember.input, { email: 'bo@example.test', permissions: [], visibility: 'all' }), expected);
  t.same(messageFor(updateMember.input, { user_id: 'usr_1', permissions: [], visibility: 'all' }), expected);
});

// An agent sends null to "clear" a first name, 1e400 for a big number, STATUS in capitals: each
// was answered in zod's terms ("expected string, received null", "received Infinity",
// 'Invalid option: expected one of "active"|"archived"').
t.test('null, a number JSON reads as infinity, and a value outside a choice are said in words', async (t) => {
  t.same(messageFor(UpdateContactFields, { first_name: null }), { message: 'first_name: must not be null: expected text', param: 'first_name' });
  t.same(messageFor(UpdateContactFields, { status: 'ARCHIVED' }), { message: 'status: must be one of: active, archived', param: 'status' });
  t.same(messageFor(UpdateContactFields, { status: null }), { message: 'status: must be one of: active, archived', param: 'status' });
  t.same(messageFor(CreateDealInput, { name: 'D', amount: JSON.parse('1e400') as number, currency: 'USD' }), {
    message: 'amount: is too large to be a number that can be kept exactly',
    param: 'amount',
  });
  t.same(messageFor(UpdateContactFields, { custom_fields: JSON.parse('{"score": 1e400}') as unknown }), {
    message: 'custom_fields.score: is too large to be a number that can be kept exactly',
    param: 'custom_fields.score',
  });
});
