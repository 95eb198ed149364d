import type { ImportedContactRow, RowProblem } from '../../shared/contracts/contact-import.js';
import { CreateContactInput } from '../../shared/contracts/contacts.js';
import { CrmError, validationErrorFrom } from '../../shared/errors.js';
import { newContact, type NewContact } from './contact-row.js';
import { customFieldCellReader } from './custom-field-cells.js';
import type { ContactSetup } from './load-contact-setup.js';
import { rowProblem } from './row-problem.js';

/** A row that passed the checks of contacts.create, ready to write (the owner is checked per batch). */
export interface ImportableContact extends NewContact {
  /** As given; undefined: the default owner. */
  owner_id: string | null | undefined;
}

export type CheckedRow = { line: number; contact: ImportableContact } | { problem: RowProblem };

/** An empty cell is no value, as if the column were absent; spaces around a value (`Ada, archived`) are not part of it, in any column. */
function cell(text: string | undefined): string | undefined {
  const value = text?.trim();
  return value === '' ? undefined : value;
}

/**
 * Checks imported rows with the rules of contacts.create: the same schema, the phone
 * read in the workspace's default country, custom fields against their definitions.
 * A failing row yields the reason the API would give instead of throwing.
 */
export function importedRowChecker(setup: ContactSetup): (row: ImportedContactRow) => CheckedRow {
  const readCustomCells = customFieldCellReader(setup.fields);
  return (row) => {
    // Required fields go in even when empty, so that the reason says "is required".
    const parsed = CreateContactInput.safeParse({
      first_name: row.first_name ?? '',
      phone: row.phone ?? '',
      last_name: cell(row.last_name),
      email: cell(row.email),
      status: cell(row.status),
      owner_id: cell(row.owner_id),
      custom_fields: row.custom_fields === undefined ? undefined : readCustomCells(row.custom_fields),
    });
    if (!parsed.success) return { problem: rowProblem(row.line, validationErrorFrom(parsed.error)) };
    try {
      return { line: row.line, contact: { ...newContact(parsed.data, setup), owner_id: parsed.data.owner_id } };
    } catch (error) {
      if (error instanceof CrmError) return { problem: rowProblem(row.line, error) };
      throw error;
    }
  };
}
