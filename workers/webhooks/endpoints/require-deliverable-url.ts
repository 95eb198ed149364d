import { ValidationError } from '../../../shared/errors.js';
import type { WorkerServices } from '../../runtime/worker-call.js';
import { systemResolver } from '../../../shared/ssrf/delivery-address.js';
import { webhookUrlProblem } from '../ssrf/webhook-url-problem.js';

/** A clear 400 for a URL a webhook may not be sent to (http, loopback, private, metadata…). */
export async function requireDeliverableUrl(url: string, services: Pick<WorkerServices, 'webhooks'>): Promise<void> {
  const problem = await webhookUrlProblem(url, { resolve: systemResolver, allowPrivateNetworks: services.webhooks.allowPrivateNetworks });
  if (problem !== null) throw new ValidationError(`url: ${problem}`, 'url');
}
