import { createContact, listContacts } from '../../shared/contracts/contacts.js';
import { handle, type WorkerDefinition } from '../runtime/worker-call.js';
import { purgeExpiredIdempotencyKeys } from '../runtime/idempotency.js';
import { createContactHandler } from './create-contact.js';
import { listContactsHandler } from './list-contacts.js';

export const contactsWorker: WorkerDefinition = {
  name: 'contacts',
  handlers: [handle(createContact, createContactHandler), handle(listContacts, listContactsHandler)],
  maintenance: {
    everyMs: 10 * 60_000,
    run: async ({ orm }, log) => {
      const purged = await purgeExpiredIdempotencyKeys(orm.em.fork());
      if (purged > 0) log.info({ purged }, 'purged expired idempotency keys');
    },
  },
};
