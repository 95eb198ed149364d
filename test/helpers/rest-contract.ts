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
  // One workspace's data: no cache keeps it, whatever the endpoint (not only those answering with a secret).
  t.equal(me.headers.get('cache-control'), 'no-store', 'GET /v1/me is never cached');

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
    const page: { status: number; headers: Headers; body: { data: { id: string }[]; links: { next: string | null }; meta: { has_more: boolean } } } =
      await reader.get(url);
    t.equal(page.status, 200);
    t.equal(page.headers.get('cache-control'), 'no-store', 'a page of contacts is never cached');
    ids.push(...page.body.data.map((c) => c.id));
    url = page.body.links.next;
    if (!url) t.equal(page.body.meta.has_more, false);
  }
  t.equal(new Set(ids).size, ids.length, 'pages do not overlap');
  t.ok(ids.includes(created.body.id));

  // A body sent to an endpoint that takes none is refused and changes nothing; {} is no body.
  const bodied = await writer.send<{ error: { code: string; param: string } }>('DELETE', `/v1/contacts/${created.body.id}`, { body: { archive_notes: true } });
  t.equal(bodied.status, 400, 'DELETE with a body field');
  t.match(bodied.body.error, { code: 'validation_failed', param: 'archive_notes' });
  t.equal((await reader.get<{ status: string }>(`/v1/contacts/${created.body.id}`)).body.status, 'active', 'and the contact is untouched');
  // A body in another type is refused too, never ignored while the DELETE goes ahead.
  const text = await writer.send<{ error: { code: string } }>('DELETE', `/v1/contacts/${created.body.id}`, { rawBody: 'archive_notes=true', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.equal(text.status, 415, 'DELETE with a form body');
  t.equal(text.body.error.code, 'unsupported_media_type');
  t.equal((await reader.get<{ status: string }>(`/v1/contacts/${created.body.id}`)).body.status, 'active', 'and the contact is untouched');
  t.equal((await writer.send('DELETE', `/v1/contacts/${created.body.id}`, { body: {} })).status, 200, 'DELETE with {}');

  // A known path asked with a method it does not take is a 405 that says which it takes.
  const put = await writer.send<{ error: { code: string; message: string } }>('PUT', `/v1/contacts/${created.body.id}`, { body: { first_name: 'Put' } });
  t.equal(put.status, 405, 'PUT on a contact');
  t.equal(put.body.error.code, 'method_not_allowed');
  t.equal(put.headers.get('allow'), 'GET, HEAD, PATCH, DELETE');
  t.match(put.body.error.message, `/v1/contacts/${created.body.id}`);
  const options = await reader.send('OPTIONS', '/v1/contacts');
  t.equal(options.status, 405, 'OPTIONS on the contacts');
  t.equal(options.headers.get('allow'), 'GET, HEAD, POST');
  const unknown = await reader.get<{ error: { code: string; message: string } }>('/v1/nothing-here?x=1');
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.message, 'No route for GET /v1/nothing-here?x=1.', 'the 404 names the whole path');

  // Every answer is JSON: an Accept header that allows none is a 406, one that allows it among others is served.
  const html = await reader.get<{ error: { code: string } }>('/v1/me', { accept: 'text/html' });
  t.equal(html.status, 406, 'Accept: text/html');
  t.equal(html.body.error.code, 'not_acceptable');
  const echoed = await reader.get<{ error: { message: string } }>('/v1/me', { accept: 'text/html, x-echo/<script>' });
  t.notMatch(echoed.body.error.message, /script/, 'the 406 does not repeat the Accept header');
  t.equal((await reader.get('/v1/me', { accept: '*/*' })).status, 200, 'Accept: */* (curl, fetch)');
  t.equal((await reader.get('/v1/me', { accept: 'text/html, application/*;q=0.5' })).status, 200, 'Accept with application/* among others');

  const forbidden = await reader.post<{ error: { required_scope: string } }>('/v1/contacts', { first_name: 'No', phone: '+1 415 555 0190' });
  t.equal(forbidden.status, 403);
  t.equal(forbidden.body.error.required_scope, 'contacts:write');

  const noToken = await request(`${baseUrl}/v1/contacts`);
  t.equal(noToken.status, 401);
  t.match(noToken.headers.get('www-authenticate'), /^Bearer/);
  t.equal(noToken.headers.get('cache-control'), 'no-store', 'nor is a 401');

  const badLimit = await reader.get<{ error: { param: string } }>('/v1/contacts?limit=101');
  t.equal(badLimit.status, 400);
  t.equal(badLimit.body.error.param, 'limit');

  t.equal((await request(`${baseUrl}/healthz`)).status, 200);
  t.equal((await request(`${baseUrl}/readyz`)).status, 200);
}
