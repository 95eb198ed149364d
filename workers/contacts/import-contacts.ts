import type { importContacts, RowPhone, RowProblem } from '../../shared/contracts/contact-import.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { jsonb, sqlOf } from '../../shared/db/sql.js';
import { CrmError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { importedRowChecker, rowProblem, type ImportableContact } from './check-imported-row.js';
import { importOwnerResolver } from './import-owners.js';
import { loadContactSetup } from './load-contact-setup.js';

interface RowToWrite {
  line: number;
  contact: ImportableContact & { owner_id: string | null };
}

/**
 * One batch of `crm import contacts`: each row checked like contacts.create, the valid
 * ones written in one INSERT … ON CONFLICT (workspace_id, phone) DO NOTHING. The unique
 * constraint decides what already exists, also against concurrent imports of the same
 * file; the workspace comes from the call context only.
 */
export const importContactsHandler: OperationHandler<typeof importContacts> = async ({ input, context, em }) => {
  const checked = input.rows.map(importedRowChecker(await loadContactSetup(em, context)));
  const ownerOf = await importOwnerResolver(
    em,
    context,
    checked.flatMap((row) => ('contact' in row ? [row.contact.owner_id] : [])),
  );

  const invalid: RowProblem[] = [];
  const skipped: RowPhone[] = [];
  const toWrite: RowToWrite[] = [];
  const phonesInBatch = new Set<string>();
  for (const row of checked) {
    if ('problem' in row) {
      invalid.push(row.problem);
      continue;
    }
    let ownerId: string | null;
    try {
      ownerId = ownerOf(row.contact.owner_id);
    } catch (error) {
      if (!(error instanceof CrmError)) throw error;
      invalid.push(rowProblem(row.line, error));
      continue;
    }
    // The first row of a phone is the one written; one statement cannot insert a phone twice.
    if (phonesInBatch.has(row.contact.phone)) {
      skipped.push({ line: row.line, phone: row.contact.phone });
      continue;
    }
    phonesInBatch.add(row.contact.phone);
    toWrite.push({ line: row.line, contact: { ...row.contact, owner_id: ownerId } });
  }

  const written = await insertNewContacts(em, context.workspace_id, toWrite);
  const created: RowPhone[] = [];
  for (const { line, contact } of toWrite) (written.has(contact.phone) ? created : skipped).push({ line, phone: contact.phone });
  skipped.sort((a, b) => a.line - b.line);
  return { created, skipped, invalid };
};

/** Inserts the rows whose phone is new to the workspace; returns the phones written. */
async function insertNewContacts(em: EntityManager, workspaceId: string, rows: RowToWrite[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const now = new Date();
  // One instant for the batch; ids sorted so that the list order (created_at, id) follows the file.
  const ids = rows.map(() => newId('contact', now.getTime())).sort();
  const inserted = await sqlOf(em)
    .insertInto('contacts')
    .values(
      rows.map(({ contact }, i) => ({
        id: ids[i] as string,
        workspace_id: workspaceId,
        first_name: contact.first_name,
        last_name: contact.last_name,
        email: contact.email,
        phone: contact.phone,
        status: contact.status,
        custom_fields: jsonb(contact.custom_fields),
        owner_id: contact.owner_id,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['workspace_id', 'phone']).doNothing())
    .returning('phone')
    .execute();
  return new Set(inserted.map((row) => row.phone));
}
