import { objectTypeOf, type Event, type EventObjectType } from '../../shared/contracts/events.js';
import { html, type Html } from '../pages/html.js';
import type { ConsoleSession } from './console-session.js';
import { workspacePath } from './workspace-url.js';

/** The kinds of record as the Activity page names them (also the labels of its filter). */
export const EVENT_OBJECT_LABELS: Record<EventObjectType, string> = {
  contact: 'Contact',
  deal: 'Deal',
  note: 'Note',
  custom_field: 'Custom field',
  pipeline: 'Pipeline',
  stage: 'Stage',
  token: 'API token',
  member: 'Member',
  agent: 'Connected agent',
  webhook_endpoint: 'Webhook endpoint',
  workspace: 'Workspace settings',
};

/** The console's own page of a record, where there is one. */
const RECORD_PAGES: Partial<Record<EventObjectType, string>> = { contact: '/contacts', deal: '/deals' };

/** What to call the record an event is about: a person's name, a deal's, a field's label…, else its id. */
function recordName(event: Event): string {
  const record = event.data.object;
  const text = (key: string): string => {
    const value = record[key];
    return typeof value === 'string' ? value.trim() : '';
  };
  const person = [text('first_name'), text('last_name')].filter(Boolean).join(' ');
  return person || text('name') || text('label') || text('client_name') || text('email') || text('key') || text('url') || recordId(event);
}

export function recordId(event: Event): string {
  const id = event.data.object.id;
  return typeof id === 'string' ? id : '';
}

/** A note has no page of its own: it is shown on its contact's or deal's page, under Notes. */
function notePath(event: Event): string | null {
  const { contact_id: contactId, deal_id: dealId } = event.data.object;
  if (typeof contactId === 'string') return `/contacts/${encodeURIComponent(contactId)}#notes`;
  if (typeof dealId === 'string') return `/deals/${encodeURIComponent(dealId)}#notes`;
  return null;
}

/** The kind of record and its name, linked to its page unless it has none (or was deleted). */
export function eventRecord(session: ConsoleSession, event: Event): Html {
  const kind = objectTypeOf(event.type);
  if (kind === 'note') {
    const path = event.type.endsWith('.deleted') ? null : notePath(event);
    const label = html`<span class="muted">${EVENT_OBJECT_LABELS.note}</span>`;
    return path === null ? html`${label} ${recordId(event)}` : html`${label} <a href="${workspacePath(session, path)}">${recordId(event)}</a>`;
  }
  const page = RECORD_PAGES[kind];
  const id = recordId(event);
  const name = recordName(event);
  const label = html`<span class="muted">${EVENT_OBJECT_LABELS[kind]}</span>`;
  if (!page || id === '' || event.type.endsWith('.deleted')) return html`${label} ${name}`;
  return html`${label} <a href="${workspacePath(session, `${page}/${encodeURIComponent(id)}`)}">${name}</a>`;
}
