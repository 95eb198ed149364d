import { Router } from 'express';
import {
  archiveCustomField,
  createCustomField,
  getCustomField,
  listCustomFields,
  updateCustomField,
} from '../../../../shared/contracts/custom-fields.js';
import { listEnvelope, nextLink } from '../../../api/list-envelope.js';
import { mountEndpoint } from '../../../api/mount-endpoint.js';
import { callWorker } from '../../../call-worker.js';
import type { GatewayDeps } from '../../../deps.js';
import {
  archiveCustomFieldEndpoint,
  createCustomFieldEndpoint,
  getCustomFieldEndpoint,
  listCustomFieldsEndpoint,
  updateCustomFieldEndpoint,
} from './endpoints.js';

export function customFieldsRoutes({ bus, publicUrl }: GatewayDeps): Router {
  const router = Router();

  mountEndpoint(router, listCustomFieldsEndpoint, async ({ query, req }) => {
    const { result } = await callWorker(bus, req, listCustomFields, query);
    return listEnvelope(result, nextLink(publicUrl(), listCustomFieldsEndpoint.path, query, result.next_cursor));
  });

  mountEndpoint(router, createCustomFieldEndpoint, async ({ body, idempotencyKey, req, res }) => {
    const { result, replayed } = await callWorker(bus, req, createCustomField, body, { idempotencyKey });
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.location(`${publicUrl()}/v1/custom-fields/${result.id}`);
    return result;
  });

  mountEndpoint(router, getCustomFieldEndpoint, async ({ params, req }) => (await callWorker(bus, req, getCustomField, params)).result);

  mountEndpoint(
    router,
    updateCustomFieldEndpoint,
    async ({ params, body, req }) => (await callWorker(bus, req, updateCustomField, { ...body, id: params.id })).result,
  );

  mountEndpoint(router, archiveCustomFieldEndpoint, async ({ params, req }) => (await callWorker(bus, req, archiveCustomField, params)).result);

  return router;
}
