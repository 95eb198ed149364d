import type { createContact } from '../../shared/contracts/contacts.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { jsonb, sqlOf, uniqueViolation } from '../../shared/db/sql.js';
import { PhoneTakenError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { resolveOwner } from '../runtime/resolve-owner.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { activeKeys, fieldDefinitionsSql } from '../schema/custom-field-definitions.js';
import { customFieldsForCreate } from '../schema/validate-custom-field-values.js';
import { toContactResource } from './contact-resource.js';
import { normalizePhone } from './normalize-phone.js';

export const PHONE_UNIQUE_CONSTRAINT = 'contacts_workspace_phone_key';

export const createContactHandler: OperationHandler<typeof createContact> = async ({ input, context, em }) => {
  const workspaceId = context.workspace_id;
  // One round trip for everything the write depends on: the default country and the field definitions.
  const setup = await sqlOf(em)
    .selectFrom('workspaces')
    .select('default_country')
    .select(fieldDefinitionsSql(workspaceId, 'contact').as('fields'))
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();

  const phone = normalizePhone(input.phone, setup.default_country);
  const customFields = customFieldsForCreate(setup.fields, 'contact', input.custom_fields ?? {});
  const ownerId = await resolveOwner(em, context, input.owner_id);
  const now = new Date();

  const row = await writeOrPhoneTaken(em, context, phone, (tx) =>
    sqlOf(tx)
      .insertInto('contacts')
      .values({
        id: newId('contact'),
        workspace_id: workspaceId,
        first_name: input.first_name,
        last_name: input.last_name ?? null,
        email: input.email ?? null,
        phone,
        status: input.status ?? 'active',
        custom_fields: jsonb(customFields),
        owner_id: ownerId,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return toContactResource(row, activeKeys(setup.fields));
};

/**
 * Runs a write that may collide on the workspace's phone uniqueness and turns the
 * collision (raced or not) into a 409 naming the existing contact. Inside a
 * transaction the write gets a savepoint, so the transaction stays usable.
 */
export async function writeOrPhoneTaken<T>(
  em: EntityManager,
  context: CallContext,
  phone: string,
  write: (em: EntityManager) => Promise<T>,
): Promise<T> {
  try {
    return em.isInTransaction() ? await em.transactional((tx) => write(tx)) : await write(em);
  } catch (error) {
    if (uniqueViolation(error) !== PHONE_UNIQUE_CONSTRAINT) throw error;
    // The existing contact is named only to a caller who may see it.
    const owner = ownerRestriction(context);
    const existing = await sqlOf(em)
      .selectFrom('contacts')
      .select('id')
      .where('workspace_id', '=', context.workspace_id)
      .where('phone', '=', phone)
      .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
      .executeTakeFirst();
    throw new PhoneTakenError(phone, existing?.id);
  }
}
