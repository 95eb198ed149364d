import type { importContacts, RowPhone, RowProblem } from '../../shared/contracts/contact-import.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { CrmError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { ownerResolver } from '../runtime/resolve-owner.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { importedRowChecker } from './check-imported-row.js';
import { rowProblems } from './row-problem.js';
import { contactRow, type NewContact } from './contact-row.js';
import { lockFieldDefinitions } from '../schema/lock-field-definitions.js';
import { loadContactSetup } from './load-contact-setup.js';
import { toContactResource, type ContactRow } from './contact-resource.js';
import { activeKeys } from '../schema/custom-field-definitions.js';

interface RowToWrite {
  line: number;
  contact: NewContact & { owner_id: string | null };
}

/**
 * One batch of `crm import contacts`: each row checked like contacts.create (every problem
 * of a refused row reported, not only the first), the valid
 * ones written in one INSERT … ON CONFLICT (workspace_id, phone) DO NOTHING. The unique
 * constraint decides what already exists, also against concurrent imports of the same
 * file; the workspace comes from the call context only.
 */
export const importContactsHandler: OperationHandler<typeof importContacts> = async ({ input, context, db, events }) => {
  // Runs in a transaction (an idempotent call): the definitions stay as read until it commits.
  await lockFieldDefinitions(db, 'contact', [...new Set(input.rows.flatMap((row) => Object.keys(row.custom_fields ?? {})))]);
  const setup = await loadContactSetup(db);
  const checked = input.rows.map(importedRowChecker(setup));
  const ownerOf = await ownerResolver(
    db,
    context,
    checked.flatMap((row) => (row.owner ? [row.owner.requested] : [])),
  );

  const invalid: RowProblem[] = [];
  const skipped: RowPhone[] = [];
  const toWrite: RowToWrite[] = [];
  const phonesInBatch = new Set<string>();
  for (const row of checked) {
    const problems = [...row.problems];
    let ownerId: string | null = null;
    // Checked on refused rows too: the report lists every problem of a row.
    try {
      if (row.owner) ownerId = ownerOf(row.owner.requested);
    } catch (error) {
      if (!(error instanceof CrmError)) throw error;
      problems.push(error);
    }
    if (problems.length > 0 || !row.contact) {
      invalid.push(...rowProblems(row.line, problems));
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

  const inserted = await insertNewContacts(db, toWrite);
  // In file order again (ids increase with it), so the events follow the file.
  inserted.sort((a, b) => (a.id < b.id ? -1 : 1));
  const keys = activeKeys(setup.fields);
  await events.asImport().record(...inserted.map((row) => ({ type: 'contact.created' as const, object: toContactResource(row, keys) })));
  const written = new Set(inserted.map((row) => row.phone));
  const created: RowPhone[] = [];
  for (const { line, contact } of toWrite) (written.has(contact.phone) ? created : skipped).push({ line, phone: contact.phone });
  skipped.sort((a, b) => a.line - b.line);
  return { created, skipped, invalid };
};

/** Inserts the rows whose phone is new to the workspace; returns the rows written. */
async function insertNewContacts(db: WorkspaceSql, rows: RowToWrite[]): Promise<ContactRow[]> {
  if (rows.length === 0) return [];
  const now = new Date();
  // One instant for the batch; ids made in row order increase (shared/ids.ts), so the list order (created_at, id) follows the file.
  const workspaceId = db.workspaceId;
  const values = rows.map(({ contact }) => contactRow(contact, { id: newId('contact', now.getTime()), workspaceId, now }));
  // Inserted in phone order: two batches sharing phones (two imports at once) then wait for each other
  // at their first shared phone instead of each holding one the other needs (a deadlock).
  values.sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));
  return db
    .insertInto('contacts')
    .values(values)
    .onConflict((oc) => oc.columns(['workspace_id', 'phone']).doNothing())
    .returningAll()
    .execute();
}
