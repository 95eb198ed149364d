import type { updateContact } from '../../shared/contracts/contacts.js';
import { NotFoundError } from '../../shared/errors.js';
import { refuseChangedMeanwhile } from '../runtime/changed-meanwhile.js';
import { requireExpectedVersion } from '../runtime/expected-version.js';
import { nextUpdatedAtSql } from '../runtime/next-updated-at.js';
import { resolveOwner } from '../runtime/resolve-owner.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { activeKeys } from '../schema/custom-field-definitions.js';
import { lockFieldDefinitions } from '../schema/lock-field-definitions.js';
import { mergedCustomFieldsSql } from '../schema/merge-custom-fields-sql.js';
import { customFieldChange, refuseClearingRequired, valuesWritten } from '../schema/validate-custom-field-values.js';
import { toContactResource } from './contact-resource.js';
import { contactUnchanged } from './contact-unchanged.js';
import { writeOrPhoneTaken } from './create-contact.js';
import { loadContactSetup } from './load-contact-setup.js';
import { normalizePhone } from './normalize-phone.js';

/** Changes the fields given. Custom fields merge in the UPDATE itself, so concurrent changes to different keys both stay. */
export const updateContactHandler: OperationHandler<typeof updateContact> = async ({ input, context, em, db, events }) => {
  const { id, custom_fields: customFields, expected_versions: expectedVersions, expected_values: expectedValues, ...fields } = input;
  // See lockFieldDefinitions: before the read, and only when custom fields are written.
  if (customFields !== undefined) await lockFieldDefinitions(db, 'contact', Object.keys(customFields));
  const setup = await loadContactSetup(db);
  const phone = fields.phone === undefined ? undefined : normalizePhone(fields.phone, setup.default_country);
  const change = customFields === undefined ? null : customFieldChange(setup.fields, 'contact', customFields);
  const ownerId = fields.owner_id === undefined ? undefined : await resolveOwner(db, context, fields.owner_id);
  const owner = ownerRestriction(context);
  // The contact as it was, locked until the change commits: its event names what changed.
  const before = await db
    .selectFrom('contacts')
    .selectAll()
    .where('id', '=', id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw new NotFoundError('contact', id, 'id');
  requireExpectedVersion('contact', id, before, expectedVersions);
  refuseClearingRequired(change, before.custom_fields);
  const keys = activeKeys(setup.fields);
  // A phone read is compared as it is stored (E.164), as the one written is.
  const expected = expectedValues?.phone === undefined ? expectedValues : { ...expectedValues, phone: normalizePhone(expectedValues.phone, setup.default_country) };
  refuseChangedMeanwhile('contact', toContactResource(before, keys), expected, { ...fields, phone, owner_id: ownerId, custom_fields: valuesWritten(change) });
  if (contactUnchanged(before, { ...fields, phone, owner_id: ownerId }, change)) return toContactResource(before, keys);

  const row = await writeOrPhoneTaken(em, db, context, phone ?? '', (txDb) =>
    txDb
      .updateTable('contacts')
      .set({
        first_name: fields.first_name,
        last_name: fields.last_name,
        email: fields.email,
        phone,
        status: fields.status,
        owner_id: ownerId,
        updated_at: nextUpdatedAtSql(),
        ...(change ? { custom_fields: mergedCustomFieldsSql(change) } : {}),
      })
      .where('id', '=', id)
      .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
      .returningAll()
      .executeTakeFirst(),
  );
  if (!row) throw new NotFoundError('contact', id, 'id');
  const updated = toContactResource(row, keys);
  // Archiving has its own type whichever way it is done (DELETE, or a PATCH of status), as a stage move has for deals.
  const type = before.status !== 'archived' && row.status === 'archived' ? 'contact.archived' : 'contact.updated';
  await events.record({ type, object: updated, previous: toContactResource(before, keys) });
  return updated;
};
