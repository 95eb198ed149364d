import t from 'tap';
import { z } from 'zod';
import { ValidationError } from '../../shared/errors.js';
import { CRM_TOOLS } from '../../gateway/mcp/tools/crm/index.js';
import { parseToolArguments } from '../../gateway/mcp/tool-arguments.js';
import { omittedBlanksOf } from '../../gateway/mcp/tool-handlers.js';

/** A CRM tool's arguments as its tools/call reads them. */
function read(toolName: string, args: Record<string, unknown>): Record<string, unknown> {
  const tool = CRM_TOOLS.find((x) => x.name === toolName)!;
  return parseToolArguments(tool.inputSchema, args, { omitted: omittedBlanksOf(tool) }) as Record<string, unknown>;
}

function refusal(toolName: string, args: Record<string, unknown>): ValidationError {
  try {
    read(toolName, args);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error(`${toolName} accepted ${JSON.stringify(args)}`);
}

t.test('a tool that reads or creates reads null for an optional argument as not given (one that reads, a blank too)', async (t) => {
  // Small models fill every optional field, with null as often as with "": a null filter can only mean "none".
  t.same(read('find_contacts', { query: 'ada', limit: null, cursor: null, created_within: null, sort: null }), { query: 'ada' });
  t.same(read('find_deals', { stage: null, pipeline: 'Sales' }), { pipeline: 'Sales' });
  t.same(read('list_notes', { contact_id: 'con_1', deal_id: null }), { contact_id: 'con_1' });
  t.equal(refusal('get_contact', { id: null }).details.param, 'id', 'a required argument is still required');
  // A tool that changes what exists keeps null: where a field takes none, a null may be a mistaken attempt to clear it.
  t.equal(refusal('update_contact', { id: 'con_1', first_name: null }).details.param, 'first_name');
  // One that creates has nothing to clear: a null option is its default (a blank is still refused: see the e-mail below).
  t.same(read('create_deal', { name: 'A', stage: null, closed_at: null }), { name: 'A', closed_at: null }, 'closed_at takes null: its own value');
  t.same(read('create_contact', { first_name: 'Ada', last_name: null, phone: '+14155550100' }), { first_name: 'Ada', last_name: null, phone: '+14155550100' }, 'a null the argument takes is its own value');
  t.equal(refusal('create_contact', { first_name: null, phone: '+14155550100' }).details.param, 'first_name', 'a required one is still required');
});

t.test('an unknown argument names the one a small model meant', async (t) => {
  // Several at once: each gets its own guess (only the first had one).
  t.match(
    refusal('find_contacts', { name: 'Ada', since: '2026-01-01', limt: 5, colour: 'red' }).message,
    'Unknown parameters `name` (did you mean `query`?), `since` (did you mean `created_after`?), `limt` (did you mean `limit`?), `colour`. Valid parameters: ',
  );
  // find_deals and count_deals take a stage or pipeline by name or id under one name each.
  t.match(refusal('find_deals', { stage_id: 'stg_1' }).message, 'did you mean `stage`?');
  t.match(refusal('count_deals', { pipeline_id: 'pipe_1' }).message, 'did you mean `pipeline`?');
  // A contact has a first and a last name, not one name.
  const named = refusal('create_contact', { name: 'Ada Lovelace', phone: '+14155550100' });
  t.match(named.message, 'did you mean `first_name`?');
  t.match(named.message, 'first_name and last_name');
  // A note's record by its id: the id says which kind it is.
  t.match(refusal('add_note', { id: 'con_1', body: 'x' }).message, 'did you mean `contact_id`?');
  t.match(refusal('add_note', { id: 'deal_1', body: 'x' }).message, 'did you mean `deal_id`?');
  t.match(refusal('list_notes', { record_id: 'deal_1' }).message, 'did you mean `deal_id`?');
});

t.test('a refused closed_at shows the form it takes', async (t) => {
  // A date alone is ISO 8601 too: "must be an ISO 8601 timestamp" left a model sending it again.
  for (const closedAt of ['2026-01-31', 'yesterday']) {
    const refused = refusal('create_deal', { name: 'A', closed_at: closedAt });
    t.equal(refused.details.param, 'closed_at');
    t.match(refused.message, 'e.g. 2026-01-31T16:00:00Z', closedAt);
  }
});

t.test('an idempotency_key where a tool takes none says why it needs none', async (t) => {
  // A model that learned to send one with every write sends it to the updates too.
  const refused = refusal('update_deal', { id: 'deal_1', stage: 'Won', idempotency_key: 'k1' });
  t.equal(refused.details.param, 'idempotency_key');
  t.match(refused.message, 'takes no idempotency_key: calling it again with the same arguments changes nothing more');
  t.notMatch(refusal('create_deal', { name: 'A', key: 'k1' }).message, /takes no idempotency_key/, 'not said where one is taken');
});

t.test('a blank e-mail on a write is refused with the way to clear it', async (t) => {
  // Blank is refused on purpose (it may be a slip); the message must still say what clears the address.
  for (const tool of ['update_contact', 'create_contact']) {
    const refused = refusal(tool, { ...(tool === 'update_contact' ? { id: 'con_1' } : {}), first_name: 'Ada', phone: '+14155550100', email: ' ' });
    t.equal(refused.details.param, 'email', tool);
    t.match(refused.message, 'send null to clear the e-mail address', tool);
  }
  t.match(refusal('update_contact', { id: 'con_1', email: 'ada' }).message, 'email: must be an e-mail address', 'a text that is no address is still that');
});

t.test("the find tools' sort and list_notes' order are each other's guess", async (t) => {
  // find_contacts and find_deals take sort (newest_first), list_notes order (desc): a model carries one over to the other.
  t.match(refusal('list_notes', { sort: 'newest_first' }).message, 'did you mean `order`?');
  t.match(refusal('find_deals', { order: 'desc' }).message, 'did you mean `sort`?');
});

t.test('"true" and "false" where a yes or no is expected read as the booleans', async (t) => {
  // As "25" reads as 25: unambiguous, and small models quote every value.
  const { STUDIO_TOOLS } = await import('../../gateway/mcp/tools/studio/index.js');
  const listFields = STUDIO_TOOLS.find((x) => x.name === 'list_custom_fields')!;
  const read = (args: Record<string, unknown>) => parseToolArguments(listFields.inputSchema, args, { omitted: 'null-or-blank' }) as Record<string, unknown>;
  t.same(read({ include_archived: 'true' }), { include_archived: true });
  t.same(read({ include_archived: 'False' }), { include_archived: false });
  t.throws(() => read({ include_archived: 'yes' }), ValidationError, 'anything else is still refused');
});

t.test('an id copied with whitespace around it reads as the id; other text keeps its spaces', async (t) => {
  const contact = 'con_01M8D050VYEVCV7M0PG8KDTDYS';
  const deal = 'deal_01M8D0516S1H0HN5FNQMD7DG3D';
  t.same(read('get_contact', { id: ` ${contact}\n` }), { id: contact }, 'on a reading tool');
  t.same(read('find_deals', { contact_id: `${contact} `, limit: 5 }), { contact_id: contact, limit: 5 });
  t.same(read('update_deal', { id: `\t${deal} `, name: ' Big ' }).id, deal, 'on a writing tool too');
  const text = z.strictObject({ label: z.string() });
  t.same(parseToolArguments(text, { label: ` ${contact} ` }), { label: ` ${contact} ` }, 'text that is not an id argument is kept as written');
});
