import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';
import { cleanText, CreationSort, inNfc, nameToLookUp, Cursor, isoInstant, OwnerIdInput, PageLimit, pageOf, RecordId, shownText, singleSpaced, Timestamp, userWritten, SearchWords } from './common.js';
import { AppliedRange, createdRangeFilters } from './created-range.js';
import { CustomFieldValues } from './custom-field-values.js';
import { ExpectedVersions } from './entity-tags.js';
import { expectedValuesOf } from './expected-values.js';
import { ACTIVE_CURRENCIES, withdrawnCurrencyProblem } from './iso-4217.js';

export const Deal = z
  .object({
    object: z.literal('deal'),
    id: z.string(),
    name: z.string().describe(userWritten("The deal's name")),
    pipeline_id: z.string(),
    stage_id: z.string(),
    amount: z.number().int().nullable().describe('Integer minor units, e.g. cents'),
    currency: z.string().nullable().describe('ISO 4217, e.g. USD'),
    contact_id: z.string().nullable().describe('The contact (con_…) the deal is with'),
    owner_id: z.string().nullable().describe('The workspace member (usr_…) who owns the deal'),
    custom_fields: CustomFieldValues.describe(userWritten('Every active deal custom field of the workspace, null where unset')),
    closed_at: Timestamp.nullable().describe('When the deal closed, as a write set it (a stage move never sets it); null: open'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Deal' });
export type Deal = z.infer<typeof Deal>;

/**
 * Our own list (iso-4217.ts), not ICU's: the codes taken must not change with the Node version.
 * A withdrawn code passes here and is refused by the worker, unless the deal already has it.
 */
const Currency = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => ACTIVE_CURRENCIES.has(code) || withdrawnCurrencyProblem(code) !== null, 'must be an active ISO 4217 currency code, e.g. USD');
/**
 * Bounds before the integer check: zod's int() also refuses numbers past 2^53−1, and said of
 * 1e20 (a whole number) that it "must be a whole number"; the first issue is the one reported.
 */
const Amount = z
  .number()
  .min(0, 'must not be negative')
  .max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER} minor units (e.g. cents)`)
  .int('must be a whole number of minor units (e.g. cents)');
const Instant = isoInstant('must be an ISO 8601 timestamp with its offset, e.g. 2026-01-31T16:00:00Z (a date alone is not one)');
const Ref = RecordId;
/** Writes take a pipeline by id only (the find tools also take a name). */
const PIPELINE_ID = 'A pipeline id (pipe_…), not a name; describe_schema (GET /v1/schema) lists them.';

const DealFields = z.strictObject({
  // Something that shows, as a contact's first name and a stage's: a name of only U+200B is a blank card on the board.
  name: shownText(200, 'is required').describe('What the deal is called, as shown on the board, e.g. "Acme renewal 2026"; at most 200 characters'),
  pipeline_id: Ref.describe(`${PIPELINE_ID} On create, default: the default pipeline, or the pipeline of stage_id. Moving a deal to another pipeline takes a stage_id of that pipeline too (or its first stage).`),
  stage_id: Ref.describe("A stage id (stg_…). On create, default: the first stage of the pipeline. A stage of the deal's pipeline, unless pipeline_id moves it."),
  stage: cleanText(100)
    .pipe(z.string().min(1, 'must not be empty').overwrite(inNfc).overwrite(singleSpaced))
    .describe("Instead of stage_id: a stage's name (case, extra spaces and characters that show as nothing do not matter), in the deal's pipeline (or the one pipeline_id names); a stage id (stg_…) is taken too, as the deal lists' stage filter takes one"),
  // Said where the argument is, not only in a tool's description: 1500 meant as $1,500 is stored as $15.00, and nothing refuses it.
  amount: Amount.nullable().describe('In minor units of the currency, a whole number: 150000 is 1,500.00 USD (cents), 1500 is 1,500 JPY (which has none); null: no amount'),
  // Alone it is kept on purpose (a deal known to be in EUR, its amount not yet), and clearing an amount leaves it; said so a model does not read it as a value.
  currency: Currency.nullable().describe(
    'An ISO 4217 code, e.g. USD or EUR (case does not matter). Required with an amount. On a deal without an amount it only records the currency the amount will be in: the deal has no value. On a deal with an amount, changing it alone changes the currency that amount is in (the number stays)',
  ),
  contact_id: Ref.nullable().describe('The contact (con_…) the deal is with; null: none. Linking a contact needs contacts:read as well (else 403 missing_scope); null unlinks without it'),
  owner_id: OwnerIdInput.create,
  custom_fields: CustomFieldValues.describe(
    'Values of deal custom fields by key, e.g. {"region": "EMEA"}; describe_schema (GET /v1/schema) lists the keys and types. null for a key clears it; on update, keys not given keep their value',
  ),
  closed_at: Instant.nullable().describe(
    'When the deal closed: ISO 8601 with its offset, e.g. 2026-01-31T16:00:00Z; null: open. Never set for you: moving the deal to a stage such as Won leaves it as it was',
  ),
});

export const CreateDealInput = DealFields.partial().required({ name: true }).meta({ id: 'CreateDeal' });

/** PATCH: only the fields given change; custom_fields merge key by key. */
export const UpdateDealFields = DealFields.partial()
  .extend({
    pipeline_id: Ref.optional().describe(`${PIPELINE_ID} Moves the deal to this pipeline: into the stage that stage or stage_id names there, else its first stage`),
    stage_id: Ref.optional().describe("A stage id (stg_…). Moves the deal to this stage of its pipeline (or of the pipeline that pipeline_id names)"),
    owner_id: OwnerIdInput.update.optional(),
  })
  .meta({ id: 'UpdateDeal' });

export const DealFilters = z.object({
  stage: nameToLookUp(100).optional().describe('A stage id (stg_…) or a stage name (case, extra spaces and characters that show as nothing do not matter, any pipeline)'),
  pipeline_id: Ref.optional().describe('Only deals in this pipeline (pipe_…)'),
  contact_id: Ref.optional().describe('Only deals with this contact (con_…)'),
  owner_id: Ref.optional().describe('Only deals this workspace member (usr_…) owns'),
  q: SearchWords.optional().describe("Words of the deal's name: every word must appear in it, case and accents ignored"),
  ...createdRangeFilters('deals'),
});
export type DealFilters = z.infer<typeof DealFilters>;

const ById = z.strictObject({ id: Ref });

export const createDeal = defineOperation({ worker: 'deals', resource: 'deals', verb: 'create', scope: 'deals:write', idempotent: true, input: CreateDealInput, output: Deal });

export const listDeals = defineOperation({
  worker: 'deals',
  resource: 'deals',
  verb: 'list',
  readOnly: true,
  scope: 'deals:read',
  input: z.strictObject({
    limit: PageLimit,
    cursor: Cursor.optional(),
    sort: CreationSort.optional(),
    ...DealFilters.shape,
    pipeline: nameToLookUp(100).optional().describe('A pipeline id (pipe_…) or a pipeline name (case, extra spaces and characters that show as nothing do not matter)'),
  }),
  output: pageOf(Deal).extend({ applied_range: AppliedRange }),
});

/**
 * A sum of amounts. Each amount is at most 2^53−1, so a sum can pass what a JSON number holds
 * exactly: it is then given as its digits, never rounded.
 */
export const AmountSum = z
  .union([z.number().int(), z.string().regex(/^[0-9]+$/)])
  .describe('Sum in minor units (e.g. cents): a number, or a string of its digits when past 9007199254740991, which a JSON number cannot hold exactly');

/** Deals per stage and currency: what a pipeline holds, in one answer. */
export const DealTotals = z.object({
  count: z.number().int().describe('Deals matching the filters'),
  by_stage: z.array(
    z.object({
      stage_id: z.string(),
      stage_name: z.string().describe(userWritten("The stage's name")),
      pipeline_id: z.string(),
      pipeline_name: z.string().describe(userWritten("The pipeline's name")),
      count: z.number().int(),
      amounts: z.array(z.object({ currency: z.string(), amount: AmountSum })).describe('Per currency; deals without an amount count but add nothing'),
    }),
  ).describe(
    'In pipeline order, then stage order. Without a stage filter: every active stage of the pipeline filtered on, or without a pipeline filter of every active pipeline, count 0 included (a stage missing here is not an active stage), and any archived stage still holding matching deals. With a stage filter: only stages with matching deals',
  ),
  applied_range: AppliedRange,
});

export const countDeals = defineOperation({
  worker: 'deals',
  resource: 'deals',
  verb: 'count',
  readOnly: true,
  scope: 'deals:read',
  input: z.strictObject({ ...DealFilters.shape, pipeline: nameToLookUp(100).optional().describe('A pipeline id (pipe_…) or name') }),
  output: DealTotals,
});

export const getDeal = defineOperation({ worker: 'deals', resource: 'deals', verb: 'get', readOnly: true, scope: 'deals:read', input: ById, output: Deal });

export const updateDeal = defineOperation({
  worker: 'deals',
  resource: 'deals',
  verb: 'update',
  destructive: true,
  scope: 'deals:write',
  idempotent: true,
  input: UpdateDealFields.extend({
    id: Ref,
    expected_versions: ExpectedVersions,
    expected_values: expectedValuesOf(Deal.pick({ name: true, amount: true, currency: true, contact_id: true, owner_id: true, closed_at: true, stage_id: true, custom_fields: true })),
  }),
  output: Deal,
});

export const DeletedDeal = z.object({ object: z.literal('deal'), id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedDeal' });

export const deleteDeal = defineOperation({
  worker: 'deals',
  resource: 'deals',
  verb: 'delete',
  scope: 'deals:write',
  destructive: true,
  input: ById.extend({ expected_versions: ExpectedVersions }),
  output: DeletedDeal,
});

/** What a deal's contact is, in one line of a deal result: only for a credential that may read that contact. */
export const DealContactSummary = z.object({
  id: z.string(),
  name: z.string().describe(userWritten('First and last name')),
  email: z.string().nullable().describe(userWritten('E-mail address')),
  phone: z.string().describe('E.164'),
});

/**
 * The names behind a set of deals' references, for results an agent reads in one call: each
 * stage with its pipeline, and each contact the caller may read (contacts:read, and for an
 * `owned` member only their own); a contact left out is one the caller may not see.
 */
export const describeDealReferences = defineOperation({
  worker: 'deals',
  resource: 'deal-references',
  verb: 'describe',
  readOnly: true,
  scope: 'deals:read',
  input: z.strictObject({ stage_ids: z.array(Ref).max(200), contact_ids: z.array(Ref).max(200) }),
  output: z.object({
    stages: z.array(z.object({ id: z.string(), name: z.string(), pipeline_id: z.string(), pipeline_name: z.string() })),
    contacts: z.array(DealContactSummary),
  }),
});
