import type pg from 'pg';

/**
 * `rows` deals in the workspace's first pipeline, spread over its stages in turn, one second
 * apart from 2025-01-01; returns the stages in order (a stage filter takes one of them).
 */
export async function seedDeals(db: pg.Client, workspaceId: string, rows: number, idPrefix = 'deal_B'): Promise<{ id: string; pipeline_id: string }[]> {
  const stages = (await db.query<{ id: string; pipeline_id: string }>('select id, pipeline_id from stages where workspace_id = $1 order by position', [workspaceId])).rows;
  await db.query(
    `insert into deals (id, workspace_id, name, pipeline_id, stage_id, amount, currency, custom_fields, created_at, updated_at)
     select $5 || lpad(i::text, 10, '0'), $1, 'Deal ' || i, $2, ($3::text[])[1 + i % 5], i * 100, 'USD', '{}',
            timestamptz '2025-01-01' + i * interval '1 second', timestamptz '2025-01-01' + i * interval '1 second'
     from generate_series(1, $4::int) as i`,
    [workspaceId, stages[0]?.pipeline_id, stages.map((s) => s.id), rows, idPrefix],
  );
  return stages;
}
