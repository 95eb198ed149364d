import type { WorkerName } from './operation.js';
import { subjectPart } from './subject-part.js';

/** A broadcast without a reply: every listener gets it (no queue group). */
export interface BusEvent {
  /** The worker that publishes it. */
  readonly worker: WorkerName;
  readonly resource: string;
  /** What happened, in kebab-case: `revoked`, `grant-changed`. */
  readonly event: string;
}

export function defineEvent(def: BusEvent): BusEvent {
  subjectPart('resource', def.resource);
  subjectPart('event', def.event);
  return def;
}

/** `<namespace>.<worker>.<resource>.<event>`: the operations' scheme with the event in place of the verb. */
export function eventSubjectOf(namespace: string, event: BusEvent): string {
  return `${namespace}.${event.worker}.${event.resource}.${event.event}`;
}
