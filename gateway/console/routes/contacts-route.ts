import { Router } from 'express';
import { countContacts, listContacts } from '../../../shared/contracts/contacts.js';
import { validationErrorFrom } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { sendPage } from '../../pages/session-routes.js';
import { ListContactsQuery } from '../../routes/v1/contacts/validators.js';
import { sessionOf } from '../console-session.js';
import { filledQuery } from '../form-fields.js';
import { customFieldLabels } from '../custom-field-labels.js';
import { ownerNames } from '../owner-names.js';
import { contactsPage } from '../pages/contacts-page.js';
import { refusalMessage, refusedField } from '../form-refusal.js';

const FILTER_KEYS = ['q', 'email', 'phone', 'status', 'created_after', 'created_before'] as const;
/** The filters as the page labels them, for a refused one. */
const LABELS = { q: 'Search', email: 'E-mail (exact)', phone: 'Phone', status: 'Status', created_after: 'Created on or after', created_before: 'Created before' };

/** The contacts page reads through the same query schema and operation as GET /v1/contacts. */
export function contactsRoute(deps: GatewayDeps): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const session = sessionOf(req);
    const query = filledQuery(req.query);
    const typed = Object.fromEntries(FILTER_KEYS.filter((k) => query[k] !== undefined).map((k) => [k, query[k] as string]));
    const cursor = query.cursor;
    const base = { session, typed, contacts: [], total: null, nextCursor: null, onLaterPage: cursor !== undefined, ownerName: (id: string | null) => id ?? '', fieldLabel: (key: string) => key };
    // Dates from the date inputs go as they are: the worker reads them in the workspace's time zone.
    const parsed = ListContactsQuery.safeParse({ ...typed, ...(cursor ? { cursor } : {}) });
    if (!parsed.success) {
      const refusal = validationErrorFrom(parsed.error);
      return sendPage(res, contactsPage({ ...base, error: refusalMessage(refusal, LABELS), errorField: refusedField(refusal, LABELS) }), 400);
    }
    const { limit: _limit, cursor: _cursor, ...filters } = parsed.data;
    try {
      const [page, count, ownerName, fieldLabel] = await Promise.all([
        callWorker(deps.bus, req, listContacts, parsed.data),
        callWorker(deps.bus, req, countContacts, filters),
        ownerNames(deps, req, session),
        customFieldLabels(deps, req, 'contact'),
      ]);
      sendPage(res, contactsPage({ ...base, contacts: page.result.data, total: count.result.count, nextCursor: page.result.next_cursor, ownerName, fieldLabel }));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'invalid_cursor'])) {
        return sendPage(res, contactsPage({ ...base, error: refusalMessage(error, LABELS), errorField: refusedField(error, LABELS) }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
  });
  return router;
}
