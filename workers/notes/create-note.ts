import { subjectOf } from '../../shared/bus/operation.js';
import { createNote, type CreateNoteInput } from '../../shared/contracts/notes.js';
import { jsonb } from '../../shared/db/sql.js';
import { newId } from '../../shared/ids.js';
import { actorOf } from '../runtime/events/event-actor.js';
import { fingerprintOf, runIdempotent } from '../runtime/idempotency.js';
import type { OperationHandler, ScopedCall } from '../runtime/worker-call.js';
import { parentIn, requireParentScope, requireVisibleParent } from './note-parent.js';
import { toNoteResource } from './note-resource.js';

type CreateCall = Pick<ScopedCall<typeof createNote>, 'context' | 'db' | 'events'>;

/** Writes the note on a record the caller may write and see, and its event, in the call's transaction. */
async function writeNote({ context, db, events }: CreateCall, input: CreateNoteInput) {
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
}

/**
 * POST /v1/notes and add_note. A tool call cannot send the Idempotency-Key header, so it
 * may give the key as `idempotency_key`: the same store and fingerprint as the header's
 * (the input without the key), so either way the first note is replayed.
 */
export const createNoteHandler: OperationHandler<typeof createNote> = async (call) => {
  const { idempotency_key: key, ...input } = call.input;
  if (key === undefined) return writeNote(call, input);
  const scope = { workspaceId: call.context.workspace_id, key, fingerprint: fingerprintOf(subjectOf(call.services.busNamespace, createNote), input) };
  const { result } = await runIdempotent(call.em, scope, (tx) => {
    const db = call.db.within(tx);
    return writeNote({ context: call.context, db, events: call.events.within(db) }, input);
  });
  return result;
};
