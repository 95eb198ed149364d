import t from 'tap';
import type { Event } from '../../shared/contracts/events.js';
import { eventChanges } from '../../gateway/console/event-changes.js';
import type { RecordValueNames } from '../../gateway/console/record-value-names.js';

/** The console's "old → new" lines of an update, as the Activity page and a record's history show them. */
const names: RecordValueNames = { ownerName: (id) => id ?? 'nobody', pipelineName: (id) => id, stageName: (id) => id };

const noteUpdate = (from: string, to: string): Event => ({
  object: 'event',
  id: 'evt_1',
  type: 'note.updated',
  workspace_id: 'ws_1',
  created_at: '2026-11-26T12:00:00.000Z',
  request_id: null,
  actor: { kind: 'cli', id: null, name: 'crm command line', user: null },
  data: { object: { object: 'note', id: 'note_1', body: to }, previous_attributes: { body: from } },
});

/** Unpaired UTF-16 surrogates: written out as UTF-8 they become U+FFFD (a "?" in a box). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

t.test('a long value is cut between characters, never inside an emoji', async (t) => {
  // 159 ASCII characters, then emoji: a cut after 160 UTF-16 units falls inside the first emoji.
  const long = `${'a'.repeat(159)}${'😀'.repeat(20)}`;
  const shown = eventChanges(noteUpdate(long, 'short'), names, { timeZone: 'UTC' }).value;
  t.notOk(LONE_SURROGATE.test(shown), 'no half of a surrogate pair is left in the page');
  t.match(shown, /a{159}😀…/, 'the value is cut after the character that fits, and marked as cut');
});

t.test('a value of emoji only is cut at 160 characters, not 160 UTF-16 units', async (t) => {
  const shown = eventChanges(noteUpdate('😀'.repeat(200), 'short'), names, { timeZone: 'UTC' }).value;
  t.notOk(LONE_SURROGATE.test(shown));
  t.ok(shown.includes(`${'😀'.repeat(160)}…`), 'as many emoji as characters allowed');
});

t.test('a short value is shown whole', async (t) => {
  const shown = eventChanges(noteUpdate('😀 hi', 'bye'), names, { timeZone: 'UTC' }).value;
  t.match(shown, /😀 hi<\/span> → <span class="new-value">bye/);
});
