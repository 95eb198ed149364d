import type { Test } from 'tap';
import { client, request } from './http.js';

/**
 * The REST contract (docs/api.md) for one deployment. Run against the NATS stack
 * and against the embedded default, so both are held to the same behaviour.
 */
export async function checkRestContract(
  t: Test,
  baseUrl: string,
  tokens: { writer: string; reader: string; workspaceId: string },
): Promise<void> {
  const writer = client(baseUrl, tokens.writer);
  const reader = client(baseUrl, tokens.reader);

  const me = await writer.get<{ object: string; workspace: { id: string }; scopes: string[] }>('/v1/me');
  t.equal(me.status, 200, 'GET /v1/me');
  t.equal(me.body.object, 'token');
  t.equal(me.body.workspace.id, tokens.workspaceId);

  const created = await writer.post<{ id: string; phone: string }>('/v1/contacts', { first_name: 'Contract', phone: '(415) 555-0160' });
  t.equal(created.status, 201, 'POST /v1/contacts');
  t.equal(created.body.phone, '+14155550160');
  t.equal(created.headers.get('location'), `${baseUrl}/v1/contacts/${created.body.id}`);
  t.match(created.headers.get('request-id'), /^req_/);

  const dup = await writer.post<{ error: { code: string; existing_id: string } }>('/v1/contacts', { first_name: 'Again', phone: '+1 415 555 0160' });
  t.equal(dup.status, 409);
  t.equal(dup.body.error.code, 'phone_taken');
  t.equal(dup.body.error.existing_id, created.body.id);

  for (let i = 0; i < 3; i++) await writer.post('/v1/contacts', { first_name: `Page ${i}`, phone: `+1 415 555 017${i}` });
  const ids: string[] = [];
  let url: string | null = `${baseUrl}/v1/contacts?limit=2`;
  while (url) {
    const page: { status: number; body: { data: { id: string }[]; links: { next: string | null }; meta: { has_more: boolean } } } =
      await reader.get(url);
    t.equal(page.status, 200);
    ids.push(...page.body.data.map((c) => c.id));
    url = page.body.links.next;
    if (!url) t.equal(page.body.meta.has_more, false);
  }
  t.equal(new Set(ids).size, ids.length, 'pages do not overlap');
  t.ok(ids.includes(created.body.id));

  const forbidden = await reader.post<{ error: { required_scope: string } }>('/v1/contacts', { first_name: 'No', phone: '+1 415 555 0190' });
  t.equal(forbidden.status, 403);
  t.equal(forbidden.body.error.required_scope, 'contacts:write');

  const noToken = await request(`${baseUrl}/v1/contacts`);
  t.equal(noToken.status, 401);
  t.match(noToken.headers.get('www-authenticate'), /^Bearer/);

  const badLimit = await reader.get<{ error: { param: string } }>('/v1/contacts?limit=101');
  t.equal(badLimit.status, 400);
  t.equal(badLimit.body.error.param, 'limit');

  t.equal((await request(`${baseUrl}/healthz`)).status, 200);
  t.equal((await request(`${baseUrl}/readyz`)).status, 200);
}
