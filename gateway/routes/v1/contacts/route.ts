import { Router } from 'express';
import { createContact, listContacts } from '../../../../shared/contracts/contacts.js';
import { callWorker } from '../../../call-worker.js';
import type { GatewayDeps } from '../../../deps.js';
import { listEnvelope, nextLink } from '../../../list-envelope.js';
import { requireScope } from '../../../middlewares/require-scope.js';
import { idempotencyKeyOf, parseBody, parseQuery } from '../../../validation.js';
import { CreateContactBody, ListContactsQuery } from './validators.js';

export function contactsRoutes({ bus, publicUrl }: GatewayDeps): Router {
  const router = Router();

  router.get('/', requireScope('contacts:read'), async (req, res) => {
    const query = parseQuery(ListContactsQuery, req);
    const { result } = await callWorker(bus, req, listContacts, query);
    res.json(listEnvelope(result, nextLink(publicUrl(), '/v1/contacts', query, result.next_cursor)));
  });

  router.post('/', requireScope('contacts:write'), async (req, res) => {
    const body = parseBody(CreateContactBody, req);
    const idempotencyKey = idempotencyKeyOf(req);
    const { result, replayed } = await callWorker(bus, req, createContact, body, { idempotencyKey });
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.status(201).location(`${publicUrl()}/v1/contacts/${result.id}`).json(result);
  });

  return router;
}
