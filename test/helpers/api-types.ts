/**
 * Response bodies as the service declares them (the contracts and the gateway's
 * envelopes), so that tests read the API through the same types and cannot drift.
 */
import type { ListEnvelope } from '../../gateway/api/list-envelope.js';
import type { restErrorBody } from '../../gateway/errors/rest-error-body.js';

export type { Contact } from '../../shared/contracts/contacts.js';
export type { Deal } from '../../shared/contracts/deals.js';
export type { Pipeline, Stage } from '../../shared/contracts/pipelines.js';

/** The REST error envelope. */
export type ErrorBody = ReturnType<typeof restErrorBody>;

/** One page of a REST list. */
export type ListPage<T> = ListEnvelope<T>;
