import express from 'express';
import pg from 'pg';

/**
 * The baseline: the same list query served by the smallest reasonable express + pg
 * handler, in one process, with no auth, no bus and no validation.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const workspaceId = process.env.WORKSPACE_ID;
const app = express();

app.get('/v1/contacts', async (req, res) => {
  const limit = Math.min(Number(req.query.limit ?? 25), 100);
  const { rows } = await pool.query(
    `select id, first_name, last_name, email, phone, status, custom_fields, owner_id, created_at, updated_at
     from contacts where workspace_id = $1 order by created_at, id limit $2`,
    [workspaceId, limit + 1],
  );
  const page = rows.slice(0, limit);
  res.json({
    object: 'list',
    data: page.map((r) => ({ object: 'contact', ...r })),
    meta: { limit, has_more: rows.length > limit },
    links: { next: null },
  });
});

app.listen(Number(process.env.PORT), '127.0.0.1');
