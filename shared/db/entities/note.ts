import { defineEntity, p } from '@mikro-orm/core';
import type { Actor } from '../../contracts/events.js';
import { Contact } from './contact.js';
import { Deal } from './deal.js';
import { Workspace } from './workspace.js';

/** Markdown text on exactly one contact or one deal (a check constraint holds it to one). */
export const NoteSchema = defineEntity({
  name: 'Note',
  tableName: 'notes',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    contactId: () => p.manyToOne(Contact).mapToPk().fieldName('contact_id').nullable(),
    dealId: () => p.manyToOne(Deal).mapToPk().fieldName('deal_id').nullable(),
    body: p.text(),
    /** Who wrote it, as events name actors; kept as it was when written. */
    author: p.json<Actor>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class Note extends NoteSchema.class {}
NoteSchema.setClass(Note);
