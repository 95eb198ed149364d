import type { Contact as ContactResource, createContact } from '../../shared/contracts/contacts.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { foreignKeyViolation, uniqueViolation } from '../../shared/db/sql.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError, PhoneTakenError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { resolveOwner } from '../runtime/resolve-owner.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { ParsedInput } from '../../shared/bus/operation.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { activeKeys } from '../schema/custom-field-definitions.js';
import { lockFieldDefinitions } from '../schema/lock-field-definitions.js';
import { toContactResource } from './contact-resource.js';
import { contactRow, newContact } from './contact-row.js';
import { refuseTakenEmail } from './refuse-taken-email.js';
import { withContactSetup, type ContactSetup } from './load-contact-setup.js';
import { settingsStillAt } from '../runtime/settings-version.js';

export const PHONE_UNIQUE_CONSTRAINT = 'contacts_workspace_phone_key';
const OWNER_KEY_CONSTRAINT = 'contacts_owner_fkey';

/**
 * A create normally costs one statement: the workspace's setup (default country, field
 * definitions) as this process last read it, and an insert that holds only while that
 * setup is current. When it is not, or when it refused the input, the setup is read again
 * and, if it had changed, the create is made with the new one.
 * One that sets custom fields runs in a transaction (see {@link createContactIsSingleStatement}):
 * it locks their definitions first, as updates do (lockFieldDefinitions), so a select option
 * removed meanwhile is either seen by this create or counts the contact it stored.
 */
export const createContactHandler: OperationHandler<typeof createContact> = async (call) => {
  const keys = Object.keys(call.input.custom_fields ?? {});
  if (keys.length > 0) await lockFieldDefinitions(call.db, 'contact', keys);
  return withContactSetup(call, (setup, check) => createWith(call, setup, check));
};

/** create_contact's own check (unique_email): an address already in the workspace is refused. */
function checksEmail(input: ParsedInput<typeof createContact>): input is ParsedInput<typeof createContact> & { email: string } {
  return input.unique_email === true && typeof input.email === 'string';
}

/**
 * The runtime opens no transaction for a create that sets no custom field and checks no e-mail
 * address: it is one statement (REST's creates, as before, pay for nothing more).
 */
export const createContactIsSingleStatement = (input: ParsedInput<typeof createContact>): boolean =>
  (input.custom_fields === undefined || Object.keys(input.custom_fields).length === 0) && !checksEmail(input);

async function createWith(
  { input, context, db, events }: Parameters<typeof createContactHandler>[0],
  setup: ContactSetup,
  checkSetup: boolean,
): Promise<ContactResource> {
  const contact = newContact(input, setup);
  const ownerId = await resolveOwner(db, context, input.owner_id);
  // After the input's own checks: a malformed phone or an unknown owner is said first, as without this one.
  if (checksEmail(input)) {
    // A phone in use is said before the e-mail, as the insert would say it: else a caller who sees
    // only their own contacts could learn, with a taken phone and nothing written, whether any
    // address exists in the workspace.
    const phoneHeld = await db.selectFrom('contacts').select('id').where('phone', '=', contact.phone).executeTakeFirst();
    if (phoneHeld) throw await phoneTaken(db, context, contact.phone);
    await refuseTakenEmail(db, context, input.email);
  }
  const now = new Date();
  const id = newId('contact');
  // The contact as it will read back: the event carries it, written in the same statement.
  const created = toContactResource(
    { ...contact, id, owner_id: ownerId, created_at: now.toISOString(), updated_at: now.toISOString() },
    activeKeys(setup.fields),
  );
  // ON CONFLICT rather than a caught violation: nothing is written, and nothing recorded, for a phone in use.
  const insert = db
    .insertInto('contacts')
    .values(contactRow({ ...contact, owner_id: ownerId }, { id, workspaceId: context.workspace_id, now }))
    .onConflict((oc) => oc.columns(['workspace_id', 'phone']).doNothing())
    .returning('id')
    .$if(checkSetup, (q) => q.returning(settingsStillAt(context.workspace_id, setup.settings_version).as('setup_current')));
  let written;
  try {
    written = await events.recordWithInsert({ type: 'contact.created', object: created }, insert);
  } catch (error) {
    // One statement, no transaction: the owner's membership was checked a moment before and
    // may have ended since. Nothing was written; the answer is the check's own.
    if (foreignKeyViolation(error) === OWNER_KEY_CONSTRAINT && ownerId !== null) throw new NotFoundError('workspace member', ownerId, 'owner_id');
    throw error;
  }
  if (!written) throw await phoneTaken(db, context, contact.phone);
  return created;
}

/**
 * Runs a write that may collide on the workspace's phone uniqueness and turns the
 * collision (raced or not) into a 409 naming the existing contact. Inside a
 * transaction the write gets a savepoint, so the transaction stays usable.
 */
export async function writeOrPhoneTaken<T>(
  em: EntityManager,
  db: WorkspaceSql,
  context: CallContext,
  phone: string,
  write: (db: WorkspaceSql) => Promise<T>,
): Promise<T> {
  try {
    return em.isInTransaction() ? await em.transactional((tx) => write(db.within(tx))) : await write(db);
  } catch (error) {
    if (uniqueViolation(error) !== PHONE_UNIQUE_CONSTRAINT) throw error;
    throw await phoneTaken(db, context, phone);
  }
}

/** The 409 for a phone already in the workspace; the existing contact is named only to a caller who may see it. */
async function phoneTaken(db: WorkspaceSql, context: CallContext, phone: string): Promise<PhoneTakenError> {
  const owner = ownerRestriction(context);
  const existing = await db
    .selectFrom('contacts')
    .select('id')
    .where('phone', '=', phone)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .executeTakeFirst();
  return new PhoneTakenError(phone, existing?.id);
}
