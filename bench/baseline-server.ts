// The same V8 tuning as the service's processes (cli/crm.ts), so the comparison stays fair.
import '../cli/v8-tuning.js';
import express from 'express';
import pg from 'pg';

/**
 * The baseline: the same list queries served by the smallest reasonable express + pg
 * handlers, in one process, with no auth, no bus, no validation and no cursor signing.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const workspaceId = process.env.WORKSPACE_ID;
const app = express();

function page(rows: Record<string, unknown>[], limit: number, object: string) {
  return {
    object: 'list',
    data: rows.slice(0, limit).map((r) => ({ object, ...r })),
    meta: { limit, has_more: rows.length > limit },
    links: { next: null },
  };
}

app.get('/v1/contacts', async (req, res) => {
  const limit = Math.min(Number(req.query.limit ?? 25), 100);
  const { rows } = await pool.query(
    `select id, first_name, last_name, email, phone, status, custom_fields, owner_id, created_at, updated_at
     from contacts where workspace_id = $1 order by created_at, id limit $2`,
    [workspaceId, limit + 1],
  );
  res.json(page(rows, limit, 'contact'));
});

app.get('/v1/deals', async (req, res) => {
  const limit = Math.min(Number(req.query.limit ?? 25), 100);
  const params: unknown[] = [workspaceId];
  let where = 'workspace_id = $1';
  if (typeof req.query.stage_id === 'string') where += ` and stage_id = $${params.push(req.query.stage_id)}`;
  if (typeof req.query.created_after === 'string') where += ` and created_at >= $${params.push(req.query.created_after)}`;
  const { rows } = await pool.query(
    `select id, name, pipeline_id, stage_id, amount::float8 as amount, currency, contact_id, owner_id, custom_fields, closed_at, created_at, updated_at
     from deals where ${where} order by created_at, id limit $${params.push(limit + 1)}`,
    params,
  );
  res.json(page(rows, limit, 'deal'));
});

app.listen(Number(process.env.PORT), '127.0.0.1');
