import type { Request } from 'express';
import type { z } from 'zod';
import { describeSchema, type SchemaDescription } from '../../shared/contracts/schema.js';
import { callWorker } from '../call-worker.js';
import type { GatewayDeps } from '../deps.js';

const READ = new WeakMap<Request, Promise<z.infer<typeof SchemaDescription>>>();

/**
 * The workspace's custom fields and pipelines, read once per console request: a record page
 * needs them for its field labels and for the names in its history, and read by each part
 * they cost two bus calls that load the same pipelines.
 */
export function workspaceSchema(deps: GatewayDeps, req: Request): Promise<z.infer<typeof SchemaDescription>> {
  let read = READ.get(req);
  if (!read) {
    read = callWorker(deps.bus, req, describeSchema, {}).then(({ result }) => result);
    READ.set(req, read);
  }
  return read;
}
