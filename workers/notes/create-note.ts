import type { createNote } from '../../shared/contracts/notes.js';
import { jsonb } from '../../shared/db/sql.js';
import { newId } from '../../shared/ids.js';
import { actorOf } from '../runtime/events/event-actor.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { parentIn, requireParentScope, requireVisibleParent } from './note-parent.js';
import { toNoteResource } from './note-resource.js';

/**
 * POST /v1/notes and add_note: the note on a record the caller may write and see, and its
 * event, in the call's transaction. An idempotency key (the header, or add_note's argument,
 * which the gateway sends as the header) replays the first note like any create.
 */
export const createNoteHandler: OperationHandler<typeof createNote> = async ({ context, db, events, input }) => {
  const parent = parentIn(input);
  if (!parent) throw new Error('notes.create without a parent passed its input schema');
  requireParentScope(context, parent.kind, 'write');
  const { owner_id: parentOwner } = await requireVisibleParent(db, context, parent, { lock: true });
  const now = new Date();
  const row = await db
    .insertInto('notes')
    .values({
      id: newId('note', now.getTime()),
      workspace_id: context.workspace_id,
      contact_id: parent.kind === 'contact' ? parent.id : null,
      deal_id: parent.kind === 'deal' ? parent.id : null,
      body: input.body,
      author: jsonb(await actorOf(db, context)),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const created = toNoteResource(row);
  await events.record({ type: 'note.created', object: created, owner: parentOwner });
  return created;
};
