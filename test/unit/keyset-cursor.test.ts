import { randomBytes } from 'node:crypto';
import t from 'tap';
import { InvalidCursorError } from '../../shared/errors.js';
import { decodeCursor, encodeCursor } from '../../workers/runtime/keyset-cursor.js';

const key = randomBytes(32);
const scope = { workspaceId: 'ws_A', list: 'contacts', filters: { status: 'active', q: undefined } };
const position = { createdAt: new Date('2026-03-01T10:00:00.123Z'), id: 'con_X' };

t.test('round trip', async (t) => {
  const cursor = encodeCursor(key, scope, position);
  t.same(decodeCursor(key, scope, cursor), position);
  t.same(decodeCursor(key, { ...scope, filters: { q: undefined, status: 'active' } }, cursor), position, 'filter order and undefined do not matter');
});

t.test('anything else is an invalid cursor', async (t) => {
  const cursor = encodeCursor(key, scope, position);
  const [body = '', sig = ''] = cursor.split('.');
  const edited = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
  edited.i = 'con_Y';
  const cases: [string, string, typeof scope][] = [
    ['edited body', `${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${sig}`, scope],
    ['other key', encodeCursor(randomBytes(32), scope, position), scope],
    ['other workspace', cursor, { ...scope, workspaceId: 'ws_B' }],
    ['other list', cursor, { ...scope, list: 'deals' }],
    ['other filters', cursor, { ...scope, filters: { status: 'archived', q: undefined } }],
    ['no signature', body, scope],
    ['extra part', `${cursor}.x`, scope],
    ['empty', '', scope],
    ['not base64 json', `abc.${sig}`, scope],
  ];
  for (const [label, bad, s] of cases) t.throws(() => decodeCursor(key, s, bad), InvalidCursorError, label);
});

t.test('a cursor stays short however many values its filters hold, and bound to them', async (t) => {
  // GET /v1/deals?stage=won resolves the name to a stage id in every pipeline.
  const stageIds = Array.from({ length: 200 }, (_, i) => `stg_${String(i).padStart(26, '0')}`);
  const many = { ...scope, list: 'deals', filters: { stage_ids: stageIds } };
  const cursor = encodeCursor(key, many, position);
  t.ok(cursor.length < 200, `${cursor.length} characters`);
  t.same(decodeCursor(key, many, cursor), position);
  const other = { ...many, filters: { stage_ids: stageIds.slice(1) } };
  t.throws(() => decodeCursor(key, other, cursor), InvalidCursorError, 'one stage fewer is other filters');
});

t.test('Postgres timestamp text parses in every form it takes', async (t) => {
  const { pgTimestamp } = await import('../../shared/db/sql.js');
  t.equal(pgTimestamp('2026-01-31 10:00:00.123+00').toISOString(), '2026-01-31T10:00:00.123Z');
  t.equal(pgTimestamp('2026-01-31 10:00:00+00').toISOString(), '2026-01-31T10:00:00.000Z');
  t.equal(pgTimestamp('2026-01-31 11:00:00.5+01').toISOString(), '2026-01-31T10:00:00.500Z');
  t.equal(pgTimestamp('2026-01-31 04:30:00-05:30').toISOString(), '2026-01-31T10:00:00.000Z');
  t.throws(() => pgTimestamp('yesterday'));
});

t.test('the fast ISO path agrees with the full parse', async (t) => {
  const { isoTimestamp } = await import('../../shared/db/sql.js');
  for (const text of ['2026-01-31 10:00:00.123+00', '2026-01-31 10:00:00+00', '2026-01-31 10:00:00.1+00', '2026-01-31 10:00:00.12+00', '2026-01-31 10:00:00.123456+00', '2026-01-31 11:00:00.123+01']) {
    t.equal(isoTimestamp(text), new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString(), text);
  }
});

t.test('a refused cursor says what to send, in words that hold for REST and for the tool servers alike', async (t) => {
  // An agent on a tool server has next_cursor, not links.next: the message must not send it looking for a link.
  const cursor = encodeCursor(key, scope, position);
  const messages: string[] = [];
  for (const [bad, s] of [
    ['garbage', scope],
    [cursor, { ...scope, list: 'deals' }],
    [cursor, { ...scope, filters: { status: 'archived', q: undefined } }],
  ] as const) {
    try {
      decodeCursor(key, s, bad);
    } catch (error) {
      messages.push((error as Error).message);
    }
  }
  t.equal(messages.length, 3);
  for (const message of messages) t.notMatch(message, /links\.next/, message);
  t.match(messages[2], /same filters and sort/, 'other filters: keep them, or start again');
});

t.test("another workspace's cursor is refused as such, not as another list's", async (t) => {
  // The usual slip: paging with a second token (another workspace) from the first one's links.
  const cursor = encodeCursor(key, scope, position);
  t.throws(() => decodeCursor(key, { ...scope, workspaceId: 'ws_B' }, cursor), { message: /another workspace/ });
  t.throws(() => decodeCursor(key, { ...scope, list: 'deals' }, cursor), { message: /different list/ });
});
