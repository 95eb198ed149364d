import type { getContact } from '../../shared/contracts/contacts.js';
import { NotFoundError } from '../../shared/errors.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { CONTACT_COLUMNS, toContactResource } from './contact-resource.js';

/** A contact of the workspace (archived ones too); others, and those the caller may not see, are 404. */
export const getContactHandler: OperationHandler<typeof getContact> = async ({ input, context, db }) => {
  const owner = ownerRestriction(context);
  const row = await db
    .selectFrom('contacts')
    .select(CONTACT_COLUMNS)
    .select(activeFieldKeysSql(db, 'contact').as('field_keys'))
    .where('id', '=', input.id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .executeTakeFirst();
  if (!row) throw new NotFoundError('contact', input.id, 'id');
  return toContactResource(row, row.field_keys);
};
