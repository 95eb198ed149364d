import { importContacts } from '../../shared/contracts/contact-import.js';
import { archiveContact, countContacts, createContact, getContact, listContacts, updateContact } from '../../shared/contracts/contacts.js';
import { handle, type WorkerDefinition } from '../runtime/worker-call.js';
import { purgeExpiredIdempotencyKeys } from '../runtime/idempotency.js';
import { noteHandlers } from '../notes/index.js';
import { archiveContactHandler } from './archive-contact.js';
import { countContactsHandler } from './count-contacts.js';
import { createContactHandler, createContactIsSingleStatement } from './create-contact.js';
import { getContactHandler } from './get-contact.js';
import { importContactsHandler } from './import-contacts.js';
import { listContactsHandler } from './list-contacts.js';
import { updateContactHandler } from './update-contact.js';

export const contactsWorker: WorkerDefinition = {
  name: 'contacts',
  handlers: [
    handle(createContact, createContactHandler, { singleStatement: createContactIsSingleStatement }),
    handle(listContacts, listContactsHandler),
    handle(getContact, getContactHandler),
    handle(updateContact, updateContactHandler),
    handle(archiveContact, archiveContactHandler),
    handle(countContacts, countContactsHandler),
    // An import's batches arrive several at a time; written in that order, the list keeps the file's order (with one worker).
    handle(importContacts, importContactsHandler, { inArrivalOrder: true }),
    ...noteHandlers,
  ],
  maintenance: {
    everyMs: 10 * 60_000,
    run: async ({ orm }, log) => {
      const purged = await purgeExpiredIdempotencyKeys(orm.em.fork());
      if (purged > 0) log.info({ purged }, 'purged expired idempotency keys');
    },
  },
};
