import { Router } from 'express';
import { archiveContact, createContact, getContact, listContacts, updateContact } from '../../../../shared/contracts/contacts.js';
import { listEnvelope, nextLink } from '../../../api/list-envelope.js';
import { mountEndpoint } from '../../../api/mount-endpoint.js';
import { callWorker } from '../../../call-worker.js';
import type { GatewayDeps } from '../../../deps.js';
import {
  archiveContactEndpoint,
  createContactEndpoint,
  getContactEndpoint,
  listContactsEndpoint,
  updateContactEndpoint,
} from './endpoints.js';

export function contactsRoutes({ bus, publicUrl }: GatewayDeps): Router {
  const router = Router();

  mountEndpoint(router, listContactsEndpoint, async ({ query, req }) => {
    const { result } = await callWorker(bus, req, listContacts, query);
    return listEnvelope(result, nextLink(publicUrl(), listContactsEndpoint.path, query, result.next_cursor));
  });

  mountEndpoint(router, createContactEndpoint, async ({ body, idempotencyKey, req, res }) => {
    const { result, replayed } = await callWorker(bus, req, createContact, body, { idempotencyKey });
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.location(`${publicUrl()}/v1/contacts/${result.id}`);
    return result;
  });

  mountEndpoint(router, getContactEndpoint, async ({ params, req }) => (await callWorker(bus, req, getContact, params)).result);

  mountEndpoint(router, updateContactEndpoint, async ({ params, body, idempotencyKey, req, res }) => {
    const { result, replayed } = await callWorker(bus, req, updateContact, { ...body, id: params.id }, { idempotencyKey });
    if (replayed) res.set('Idempotent-Replayed', 'true');
    return result;
  });

  mountEndpoint(router, archiveContactEndpoint, async ({ params, req }) => (await callWorker(bus, req, archiveContact, params)).result);

  return router;
}
