import type pg from 'pg';

/** `rows` contacts in one workspace, one second apart from 2025-01-01, each with a distinct phone and e-mail. */
export async function seedContacts(db: pg.Client, workspaceId: string, rows: number, idPrefix = 'con_B'): Promise<void> {
  await db.query(
    `insert into contacts (id, workspace_id, first_name, last_name, email, phone, status, custom_fields, created_at, updated_at)
     select $3 || lpad(i::text, 10, '0'), $1, 'First' || i, 'Last' || i, 'person' || i || '@example.test',
            '+1650' || lpad((2000000 + i)::text, 7, '0'), 'active', '{}',
            timestamptz '2025-01-01' + i * interval '1 second', timestamptz '2025-01-01' + i * interval '1 second'
     from generate_series(1, $2::int) as i`,
    [workspaceId, rows, idPrefix],
  );
}
