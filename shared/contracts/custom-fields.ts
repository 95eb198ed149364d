import { z } from 'zod';
import { DESIGN_READ_SCOPES, DESIGN_WRITE_SCOPES } from '../auth/scopes.js';
import { defineOperation } from '../bus/operation.js';
import { Cursor, inNfc, nameKey, refuseRepeatedNames, PageLimit, pageOf, singleSpaced, singleSpacedName, shownText, Timestamp, userWritten } from './common.js';
import { CustomFieldKey } from './custom-field-values.js';

export const CustomFieldObjectType = z.enum(['contact', 'deal']);
export const CustomFieldType = z.enum(['text', 'number', 'boolean', 'date', 'select']);

export const CustomField = z
  .object({
    object: z.literal('custom_field'),
    id: z.string(),
    object_type: CustomFieldObjectType,
    key: z.string().describe('The name used in custom_fields of contacts or deals'),
    label: z.string().describe(userWritten('The name shown for the field')),
    type: CustomFieldType,
    options: z.array(z.string()).nullable().describe(userWritten('The allowed values of a select field; null for other types')),
    required: z.boolean(),
    archived: z.boolean().describe('Archived fields are hidden from records; their stored values are kept'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'CustomField' });
export type CustomField = z.infer<typeof CustomField>;

/**
 * The option of a select field a value names: as written; else the same text in NFC (options
 * are kept in NFC, so "Café" sent with a combining accent is that option); else the one option
 * equal to it with case, extra spaces and characters that show as nothing ignored (nameKey: "Gold",
 * " gold", "gold  tier" and "Gold\u00ad tier" name
 * "Gold" and "Gold tier"), as the options are unique that way (Options, below), an option stored
 * double-spaced before options were single-spaced too. The one rule of every write (REST, the
 * tools, the import), of the console forms showing a stored value, and of which stored values an
 * options change would leave without an option (removed-options-in-use.ts). Undefined for none.
 * Two options stored before hidden characters were folded ("Gold" and "Gold\u200b") can both
 * match: the first listed is taken, as both show as one name, so such a value is neither refused
 * nor counted as holding no option.
 */
export function optionNamed(options: readonly string[], value: string): string | undefined {
  if (options.includes(value)) return value;
  const nfc = inNfc(value);
  const same = options.find((option) => inNfc(option) === nfc);
  if (same !== undefined) return same;
  const folded = nameKey(value);
  const matching = options.filter((option) => nameKey(option) === folded);
  return matching[0];
}

/** The name shown for a field, single-spaced as pipeline and stage names are: "Deal  size" and "Deal size" would show as one label. */
const Label = shownText(100).overwrite(singleSpaced).describe('Trimmed, each run of spaces kept as one');

/**
 * A select field's options: single-spaced and in NFC, as pipeline and stage names are, and unique
 * with case and extra spaces ignored: "Web" and "web", or "Gold  tier" and "Gold tier", would show
 * as one choice twice.
 */
const Options = z
  .array(singleSpacedName(100))
  .min(1, 'a select field needs at least one option')
  .max(200)
  .superRefine(refuseRepeatedNames('options'));

export const CreateCustomFieldInput = z
  .strictObject({
    object_type: CustomFieldObjectType,
    key: CustomFieldKey,
    label: Label,
    type: CustomFieldType,
    options: Options.optional().describe('Required for select fields, refused for others; each trimmed, each run of spaces kept as one; unique, case, extra spaces and characters that show as nothing ignored'),
    required: z.boolean().optional().describe('Default false'),
  })
  .meta({ id: 'CreateCustomField' });

export const UpdateCustomFieldFields = z
  .strictObject({
    label: Label.optional(),
    options: Options.optional().describe(
      'The complete list of options of a select field: it replaces the current one, so include every option to keep. An option that records still hold cannot be left out (409)',
    ),
    required: z.boolean().optional(),
    archived: z.boolean().optional().describe('false restores an archived field'),
  })
  .meta({ id: 'UpdateCustomField' });

const ById = z.strictObject({ id: z.string().max(64) });

export const listCustomFields = defineOperation({
  worker: 'schema',
  resource: 'custom-fields',
  verb: 'list',
  readOnly: true,
  scope: DESIGN_READ_SCOPES,
  input: z.strictObject({
    limit: PageLimit,
    cursor: Cursor.optional(),
    object_type: CustomFieldObjectType.optional(),
    include_archived: z.boolean().optional(),
  }),
  output: pageOf(CustomField),
});

export const getCustomField = defineOperation({ worker: 'schema', resource: 'custom-fields', verb: 'get', readOnly: true, scope: DESIGN_READ_SCOPES, input: ById, output: CustomField });

export const createCustomField = defineOperation({
  worker: 'schema',
  resource: 'custom-fields',
  verb: 'create',
  scope: DESIGN_WRITE_SCOPES,
  idempotent: true,
  input: CreateCustomFieldInput,
  output: CustomField,
});

export const updateCustomField = defineOperation({
  worker: 'schema',
  resource: 'custom-fields',
  verb: 'update',
  destructive: true,
  scope: DESIGN_WRITE_SCOPES,
  idempotent: true,
  input: UpdateCustomFieldFields.extend({ id: z.string().max(64) }),
  output: CustomField,
});

export const archiveCustomField = defineOperation({ worker: 'schema', resource: 'custom-fields', verb: 'archive', scope: DESIGN_WRITE_SCOPES, destructive: true, input: ById, output: CustomField });
