import t from 'tap';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { createTestDatabase, databaseAfterMigration } from '../helpers/database.js';

/** Migration 0018: e-mail addresses stored before domains were kept in their Unicode form are rewritten to it. */

const db = await createTestDatabase();
t.teardown(() => db.drop());

t.test('punycode and IDNA-mapped domains are rewritten; other addresses and the rest of the row stay', async (t) => {
  const orm = await databaseAfterMigration(t, db, '0017-idempotency-response-as-written');
  await db.query(`insert into organizations (id, name, created_at) values ('org_mail', 'Mail', now())`);
  await db.query(`insert into workspaces (id, organization_id, name, created_at, updated_at) values ('ws_mail', 'org_mail', 'Mail', now(), now())`);
  // As contacts written before the domain was stored in Unicode hold their addresses.
  const stored: [string, string | null][] = [
    ['con_puny', 'info@xn--mller-kva.de'],
    ['con_wide', 'sales@ｅｘａｍｐｌｅ.com'],
    ['con_uni', 'info@müller.de'],
    ['con_local', 'josé@example.com'],
    ['con_ascii', 'plain@example.com'],
    ['con_none', null],
  ];
  for (const [i, [id, email]] of stored.entries()) {
    await db.query(
      `insert into contacts (id, workspace_id, first_name, email, phone, status, custom_fields, created_at, updated_at)
       values ($1, 'ws_mail', 'Mail', $2, $3, 'active', '{}', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')`,
      [id, email, `+1650555000${i}`],
    );
  }

  // Past one batch of 1,000: every other one already canonical, so batches hold rows it leaves as they are.
  await db.query(
    `insert into contacts (id, workspace_id, first_name, email, phone, status, custom_fields, created_at, updated_at)
     select 'con_bulk' || lpad(i::text, 5, '0'), 'ws_mail', 'Bulk', case when i % 2 = 0 then 'p' || i || '@xn--mller-kva.de' else 'josé' || i || '@example.com' end,
            '+1415' || lpad(i::text, 7, '0'), 'active', '{}', now(), now()
     from generate_series(1, 2500) as i`,
  );

  t.ok((await migrateDatabase(orm, db.url)).includes('0018-canonical-emails'), '0018 ran');
  const bulk = await db.query<{ punycode: string; rewritten: string; kept: string }>(
    `select count(*) filter (where email like '%xn--%') as punycode, count(*) filter (where email like '%@müller.de') as rewritten,
            count(*) filter (where email like 'josé%') as kept from contacts where id like 'con_bulk%'`,
  );
  t.same(bulk, [{ punycode: '0', rewritten: '1250', kept: '1250' }], 'every batch rewritten, the canonical rows kept');
  const rows = await db.query<{ id: string; email: string | null; updated_at: Date; search_text: string }>(
    `select id, email, updated_at, search_text from contacts where workspace_id = 'ws_mail' and id not like 'con_bulk%' order by id`,
  );
  t.same(
    rows.map((r) => [r.id, r.email]),
    [
      ['con_ascii', 'plain@example.com'],
      ['con_local', 'josé@example.com'],
      ['con_none', null],
      ['con_puny', 'info@müller.de'],
      ['con_uni', 'info@müller.de'],
      ['con_wide', 'sales@example.com'],
    ],
  );
  t.ok(rows.every((r) => r.updated_at.toISOString() === '2026-01-02T00:00:00.000Z'), 'updated_at unchanged: the address is the same mailbox');
  t.match(rows.find((r) => r.id === 'con_wide')?.search_text, /sales@example\.com/, 'the search text follows the rewritten address');
});
