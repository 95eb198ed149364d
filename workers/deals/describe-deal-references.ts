import { grantsScope } from '../../shared/auth/scopes.js';
import type { describeDealReferences } from '../../shared/contracts/deals.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { stagesWithPipelines } from './stages-with-pipelines.js';

/** Stage and pipeline names, and the contacts this caller may read, for deal results. */
export const describeDealReferencesHandler: OperationHandler<typeof describeDealReferences> = async ({ input, context, db }) => {
  const contactIds = [...new Set(input.contact_ids)];
  const stages = await stagesWithPipelines(db, input.stage_ids);
  const owner = ownerRestriction(context);
  const readsContacts = grantsScope(context.principal.scopes, 'contacts:read');
  const contacts =
    contactIds.length === 0 || !readsContacts
      ? []
      : await db
          .selectFrom('contacts')
          .select(['id', 'first_name', 'last_name', 'email', 'phone'])
          .where('id', 'in', contactIds)
          .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
          .execute();
  return {
    stages,
    contacts: contacts.map((c) => ({ id: c.id, name: [c.first_name, c.last_name].filter(Boolean).join(' '), email: c.email, phone: c.phone })),
  };
};
