import type { ImportedContactRow } from '../../shared/contracts/contact-import.js';
import { CreateContactInput } from '../../shared/contracts/contacts.js';
import type { CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { validationErrorsFrom, type CrmError } from '../../shared/errors.js';
import { nullPrototypeRecord } from '../../shared/null-prototype.js';
import { checkedNewContact, type NewContact } from './contact-row.js';
import { customFieldCellReader } from './custom-field-cells.js';
import type { ContactSetup } from './load-contact-setup.js';

/** An imported row after the checks of contacts.create, but for its owner's (checked per batch). */
export interface CheckedRow {
  line: number;
  /** The contact to write, when the row has no problem. */
  contact?: NewContact;
  /** The owner to check: as given (undefined: the default owner); absent when the schema refused the cell. */
  owner?: { requested: string | null | undefined };
  /** Every problem found, in no particular order (rowProblems orders them). */
  problems: CrmError[];
}

/** An empty cell is no value, as if the column were absent; spaces around a value (`Ada, archived`) are not part of it, in any column. */
function cell(text: string | undefined): string | undefined {
  const value = text?.trim();
  return value === '' ? undefined : value;
}

const PartialContactInput = CreateContactInput.partial();

/** The input without the fields (and custom field values) the schema refused, so that the rest can be checked. */
function withoutRefused(input: Record<string, unknown> & { custom_fields?: CustomFieldValues | undefined }, refused: ReadonlySet<string | undefined>): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (!refused.has(key) && key !== 'custom_fields') rest[key] = value;
  if (input.custom_fields !== undefined && !refused.has('custom_fields')) {
    const values = nullPrototypeRecord<CustomFieldValues[string]>();
    for (const [key, value] of Object.entries(input.custom_fields)) if (!refused.has(`custom_fields.${key}`)) values[key] = value;
    rest.custom_fields = values;
  }
  return rest;
}

/**
 * Checks imported rows with the rules of contacts.create: the same schema, the phone
 * read in the workspace's default country, custom fields against their definitions.
 * Unlike the API, which answers the first problem, it finds every problem of the row
 * (one per field), so that a file is fixed in one pass; a failing row never throws.
 */
export function importedRowChecker(setup: ContactSetup): (row: ImportedContactRow) => CheckedRow {
  const readCustomCells = customFieldCellReader(setup.fields);
  return (row) => {
    // Required fields go in even when empty, so that the reason says "is required".
    const input = {
      first_name: row.first_name ?? '',
      phone: row.phone ?? '',
      last_name: cell(row.last_name),
      email: cell(row.email),
      status: cell(row.status),
      owner_id: cell(row.owner_id),
      custom_fields: row.custom_fields === undefined ? undefined : readCustomCells(row.custom_fields),
    };
    const parsed = CreateContactInput.safeParse(input);
    if (parsed.success) {
      const { contact, problems } = checkedNewContact(parsed.data, setup);
      return { line: row.line, ...(contact ? { contact } : {}), owner: { requested: parsed.data.owner_id }, problems };
    }
    const problems: CrmError[] = validationErrorsFrom(parsed.error);
    // What the schema took is checked further (phone, custom fields, owner), so the row's report is whole.
    const refused = new Set(problems.map((problem) => problem.details.param));
    const rest = PartialContactInput.safeParse(withoutRefused(input, refused));
    if (!rest.success) return { line: row.line, problems };
    problems.push(...checkedNewContact(rest.data, setup).problems);
    return { line: row.line, ...(refused.has('owner_id') ? {} : { owner: { requested: rest.data.owner_id } }), problems };
  };
}
