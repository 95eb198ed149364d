import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { appendFileSync } from 'node:fs';
import net from 'node:net';
import t from 'tap';
import { CRM_TOOLS } from '../../gateway/mcp/tools/crm/index.js';
import { STUDIO_TOOLS } from '../../gateway/mcp/tools/studio/index.js';
import { V1_ENDPOINTS } from '../../gateway/routes/v1/endpoints.js';
import { SCOPES } from '../../shared/auth/scopes.js';
import { startStack } from '../helpers/stack.js';
import {
  brief,
  changedTables,
  checkProperty,
  connectMcp,
  fingerprint,
  leakIn,
  PropertyBudget,
  REQUEST_TIMEOUT_MS,
  seededJson,
  send,
  sendJson,
  toolText,
  type McpServerName,
  type RawRequest,
  type RawResponse,
  type ToolResult,
} from './property-support.js';

/**
 * Property-based fuzzing of every REST endpoint (as the served OpenAPI document lists
 * them) and every tool of both MCP servers (as tools/list lists them): random JSON,
 * huge strings, deep nesting, wrong types, unicode edge cases, SQL and header injection
 * strings. Never a 5xx, never a hang, never a stack trace; a 4xx (or a tool error)
 * changes nothing in the database.
 *
 *
 * Runs: REST_RUNS per endpoint, TOOL_RUNS per tool, RPC_RUNS raw JSON-RPC bodies
 * (scaled by FC_RUNS_FACTOR; FC_SEED and FC_PATH replay what fc.assert reports), within
 * the file's time budget: a slow machine runs fewer cases (each property says how many)
 * rather than running into tap's per-file timeout (600 s, package.json).
 */
// Sized for `npm test` on two cores, where this file shares the CPU with the others; each run
// draws new cases (a new seed), and FC_RUNS_FACTOR=10 runs ten times as many.
const REST_RUNS = 60;
const TOOL_RUNS = 40;
const RPC_RUNS = 100;
/** From the start of the process, stack and seed included; the rest of the file's timeout is margin. */
const PROPERTIES_BUDGET_MS = 150_000;
const PROPERTY_MAX_MS = 10_000;

const stack = await startStack();
t.teardown(() => stack.stop());
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const W = ws.workspace.id;
const ALL_SCOPES = SCOPES.filter((s) => s.endsWith(':write'));
const token = await stack.token(W, ALL_SCOPES);
const auth = { authorization: `Bearer ${token}` };

// ---------------------------------------------------------------- seed data
async function api<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  return seededJson<T>(await sendJson(stack.baseUrl, token, method, path, body), `${method} ${path}`);
}

const memberId = await stack.addMember(W, 'fuzz-member@example.test', ['contacts.write', 'deals.write'], 'all');

const fieldIds: string[] = [];
for (const f of [
  { object_type: 'contact', key: 'note', label: 'Note', type: 'text' },
  { object_type: 'contact', key: 'score', label: 'Score', type: 'number' },
  { object_type: 'contact', key: 'vip', label: 'VIP', type: 'boolean' },
  { object_type: 'contact', key: 'birthday', label: 'Birthday', type: 'date' },
  { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['gold', 'silver'] },
  { object_type: 'deal', key: 'source', label: 'Source', type: 'text' },
  { object_type: 'deal', key: 'priority', label: 'Priority', type: 'select', options: ['high', 'low'] },
]) {
  fieldIds.push((await api<{ id: string }>('POST', '/v1/custom-fields', f)).id);
}
const partners = await api<{ id: string; stages: { id: string }[] }>('POST', '/v1/pipelines', { name: 'Partners', stages: ['Intro', 'Pilot', 'Signed'] });
const pipelines = (await api<{ data: { id: string; stages: { id: string }[] }[] }>('GET', '/v1/pipelines')).data;
const contactIds: string[] = [];
for (let i = 0; i < 5; i++) {
  contactIds.push(
    (await api<{ id: string }>('POST', '/v1/contacts', {
      first_name: `Seed ${i}`,
      last_name: 'Fuzz',
      email: `seed${i}@fuzz.test`,
      phone: `+1 415 555 01${10 + i}`,
      custom_fields: { note: 'hello', tier: 'gold' },
    })).id,
  );
}
const dealIds: string[] = [];
for (let i = 0; i < 3; i++) {
  dealIds.push((await api<{ id: string }>('POST', '/v1/deals', { name: `Deal ${i}`, amount: 1000 * i, currency: 'USD', contact_id: contactIds[i] })).id);
}
/** Tokens the fuzzer may revoke; the one it runs with is never in reach. */
const sacrificialTokenIds: string[] = [];
for (let i = 0; i < 3; i++) sacrificialTokenIds.push((await api<{ id: string }>('POST', '/v1/tokens', { name: `victim ${i}`, scopes: ['contacts:read'] })).id);
const contactCursor = (await api<{ links: { next: string } }>('GET', '/v1/contacts?limit=2')).links.next;
const cursor = new URL(contactCursor).searchParams.get('cursor') ?? '';

const REAL = {
  contact: contactIds,
  deal: dealIds,
  pipeline: pipelines.map((p) => p.id),
  stage: [...pipelines.flatMap((p) => p.stages.map((s) => s.id)), ...partners.stages.map((s) => s.id)],
  field: fieldIds,
  token: sacrificialTokenIds,
  user: [ws.user.id, memberId],
};

// ---------------------------------------------------------------- arbitraries
const SPECIAL_STRINGS = [
  "' OR 1=1 --",
  "'; DROP TABLE contacts; --",
  '"; DROP TABLE contacts; --',
  "1' UNION SELECT token_hash FROM api_tokens --",
  "\\'; select pg_sleep(10); --",
  '%',
  '_',
  '\\',
  '%_%',
  '\r\nX-Injected: 1',
  '\nX-Injected: 1',
  'x\r\n\r\n<html>',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'a\udfffb',
  '\udbff\udbff',
  '\u202e\u200f\u200eRTL',
  '\ufeff',
  '\u2028\u2029',
  'Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357\u0358\u0359',
  '😀👩‍👩‍👧‍👦',
  'İı ß ǅ ﬃ',
  '',
  ' ',
  '\t',
  '../../etc/passwd',
  '%2e%2e%2f',
  '${jndi:ldap://127.0.0.1/x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x10',
  'null',
  'true',
  '[]',
  '{}',
  'con_',
  'usr_',
  'stg_',
  'pipe_',
  'tok_',
  'sk_live_',
  '+',
  '+0',
  '+999999999999999999999',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-23:59',
  '2023-02-29T00:00:00Z',
];

/** `arb` in about `percent` % of the cases, else `otherwise` (fc.option's freq counts the other way round). */
function sometimes<T, U>(arb: fc.Arbitrary<T>, percent: number, otherwise: U): fc.Arbitrary<T | U> {
  return fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(otherwise) }, { weight: percent, arbitrary: arb });
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const controlChar = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));

/** Strings that break things: random code points, graphemes, injections, lone surrogates, NUL, around length limits. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 6 }), fc.oneof(fc.constantFrom(...SPECIAL_STRINGS), loneSurrogate, controlChar), fc.string({ maxLength: 6 }))
      .map(([a, b, c]) => a + b + c),
  },
  { weight: 1, arbitrary: fc.constantFrom(63, 64, 65, 99, 100, 101, 200, 201, 254, 255, 256, 513, 1024, 1025, 2000, 2001, 10_000).map((n) => 'x'.repeat(n)) },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53 - 1, 2 ** 53 + 2, 1e21, 1e308, -1e308, Number.MIN_VALUE),
);

const hostileKey: fc.Arbitrary<string> = fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'note', 'tier', 'score'));

/** Any JSON value, with the hostile strings and numbers at the leaves. */
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Valid-looking timestamps at the edges of what JavaScript and Postgres can hold. */
const timestampString = fc.oneof(
  fc.constantFrom(
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '1969-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59Z',
    '9999-12-31T23:59:59-23:59',
    '0000-01-01T00:00:00+23:59',
    '2024-02-29T12:00:00.123456789Z',
    '2023-02-29T00:00:00Z',
    '2026-01-01T00:00:00',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01 00:00:00Z',
  ),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  format?: string;
  required?: string[];
  $ref?: string;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; parameters?: { in: string; name: string; schema?: JsonSchema }[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
  components: { schemas: Record<string, JsonSchema> };
}

const doc = (await (await fetch(`${stack.baseUrl}/v1/openapi.json`)).json()) as OpenApiDocument;
const resolve = (s: JsonSchema | undefined): JsonSchema => {
  if (!s?.$ref) return s ?? {};
  return resolve(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')]);
};
const typesOf = (s: JsonSchema): string[] => {
  const r = resolve(s);
  const own = r.type === undefined ? [] : Array.isArray(r.type) ? r.type : [r.type];
  return [...own, ...(r.anyOf ?? []).flatMap(typesOf)];
};
const enumOf = (s: JsonSchema): unknown[] => {
  const r = resolve(s);
  return [...(r.enum ?? []), ...(r.anyOf ?? []).flatMap(enumOf)];
};

/** Real values by the name of the field that holds them, so fuzzed requests also reach the workers' deeper paths. */
function realValuesFor(name: string, path: string): string[] {
  if (name === 'contact_id') return REAL.contact;
  if (name === 'stage_id' || name === 'stage') return REAL.stage;
  if (name === 'pipeline_id' || name === 'pipeline') return REAL.pipeline;
  if (name === 'owner_id') return REAL.user;
  if (name === 'cursor') return [cursor, `${cursor}x`, cursor.slice(0, -1), cursor.split('.').reverse().join('.')];
  if (name === 'id') {
    if (path.includes('/contacts') || path === 'get_contact' || path === 'update_contact') return REAL.contact;
    if (path.includes('/deals') || path === 'update_deal') return REAL.deal;
    if (path.includes('/pipelines')) return REAL.pipeline;
    if (path.includes('custom-field') || path.includes('custom_field')) return REAL.field;
    if (path.includes('/tokens')) return REAL.token;
  }
  if (name === 'phone') return ['+1 415 555 0110', '(415) 555-0199', '415.555.0198', '+44 20 7946 0958', '+1 415 555 01'];
  if (name === 'email') return ['seed1@fuzz.test', 'SEED1@FUZZ.TEST', 'a@b', 'a@b.c'];
  if (name === 'currency') return ['USD', 'eur', 'XXX', 'US', 'USDD'];
  if (name === 'key') return ['note', 'new_key', 'Bad Key', 'a'.repeat(65)];
  return [];
}

/** A valid-looking value for a field, so that many requests get past validation into the workers (and some succeed). */
function plausibleFor(name: string, schema: JsonSchema, where: string): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const types = typesOf(s);
  const enums = enumOf(s);
  const real = realValuesFor(name, where);
  const text = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), fc.constantFrom(...SPECIAL_STRINGS.filter((x) => x.trim().length > 0)));
  const nullable = (arb: fc.Arbitrary<unknown>) => (types.includes('null') ? fc.option(arb, { nil: null, freq: 8 }) : arb);
  if (enums.length > 0) return fc.constantFrom(...enums);
  if (name === 'phone') return fc.oneof(fc.integer({ min: 0, max: 9999 }).map((n) => `+1 415 555 ${String(n).padStart(4, '0')}`), fc.constantFrom(...real));
  if (name === 'email') return nullable(fc.oneof(fc.emailAddress(), fc.constantFrom(...real)));
  if (name === 'custom_fields') {
    const typed: Record<string, fc.Arbitrary<unknown>> = {
      note: hostileString,
      source: hostileString,
      score: hostileNumber,
      vip: fc.boolean(),
      birthday: fc.oneof(fc.constantFrom('2000-02-29', '1999-02-29', '0000-01-01', '9999-12-31', '2026-13-01'), fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))),
      tier: fc.constantFrom('gold', 'silver', 'bronze', 'GOLD'),
      priority: fc.constantFrom('high', 'low'),
    };
    return fc.subarray(Object.keys(typed)).chain((keys) =>
      fc.tuple(...keys.map((k) => fc.option(typed[k] ?? hostileValue, { nil: null, freq: 6 }))).map((values) => Object.fromEntries(keys.map((k, i) => [k, values[i]]))),
    );
  }
  if (name === 'scopes') return fc.subarray([...SCOPES], { minLength: 1 });
  if (name === 'options' || name === 'stages') return nullable(fc.uniqueArray(text, { minLength: 1, maxLength: 5 }));
  if (name === 'key') return fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);
  if (name === 'amount') return nullable(fc.nat());
  if (name === 'position') return fc.integer({ min: -1, max: 8 });
  if (name === 'limit') return fc.integer({ min: 1, max: 100 });
  if (name.endsWith('_at') || name.startsWith('created_') || s.format === 'date-time') {
    return nullable(fc.oneof(timestampString, fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())));
  }
  if (real.length > 0) return nullable(fc.constantFrom(...real));
  if (types.includes('string')) return nullable(text);
  if (types.includes('integer') || types.includes('number')) return nullable(fc.integer({ min: 0, max: 100 }));
  if (types.includes('boolean')) return fc.boolean();
  if (types.includes('array')) return fc.array(text, { maxLength: 4 });
  return hostileValue;
}

/** A hostile value for a field: wrong types, injections, broken unicode, sizes around the limits, someone else's ids. */
function hostileFor(name: string, schema: JsonSchema, where: string): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const types = typesOf(s);
  const options: fc.Arbitrary<unknown>[] = [hostileValue, hostileString];
  const real = realValuesFor(name, where);
  if (real.length > 0) options.push(fc.constantFrom(...real));
  if (name.endsWith('_at') || name.startsWith('created_') || s.format === 'date-time') options.push(timestampString);
  if (types.includes('integer') || types.includes('number')) options.push(hostileNumber);
  if (name === 'scopes' || name === 'options' || name === 'stages') {
    options.push(fc.array(fc.oneof(fc.constantFrom(...SCOPES, 'gold', 'Lead', 'admin'), hostileString), { maxLength: 5 }));
  }
  if (name === 'custom_fields') {
    options.push(fc.dictionary(fc.oneof(fc.constantFrom('note', 'score', 'vip', 'birthday', 'tier', 'source', 'priority'), hostileKey), hostileValue, { maxKeys: 4 }));
  }
  return fc.oneof(...options);
}

function valueFor(name: string, schema: JsonSchema, where: string): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: plausibleFor(name, schema, where) }, { weight: 1, arbitrary: hostileFor(name, schema, where) });
}

/** Nested arrays or objects `depth` deep, as JSON text (no recursion to build or print it). */
function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

const deepBody = fc
  .tuple(fc.constantFrom(1_000, 5_000, 20_000), fc.constantFrom<'array' | 'object'>('array', 'object'), fc.constantFrom('', 'custom_fields', 'first_name', 'name'))
  .map(([depth, kind, key]) => (key ? `{"${key}":${deepJson(depth, kind)}}` : deepJson(depth, kind)));

const rawBody = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('{', '{"first_name":', '{"a":1,}', "{'a':1}", '{"a":1}{"b":2}', '\ufeff{}', 'null', '""', '[]', '0', 'NaN', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"__proto__":{"admin":true}}', ''),
);

/** Some of the declared fields: mostly every required one and a few optional ones. */
function fieldsOf(schema: JsonSchema): fc.Arbitrary<string[]> {
  const names = Object.keys(schema.properties ?? {});
  const required = schema.required ?? [];
  const optional = names.filter((n) => !required.includes(n));
  return fc.oneof(
    { weight: 4, arbitrary: fc.subarray(optional).map((chosen) => [...required, ...chosen]) },
    { weight: 1, arbitrary: fc.subarray(names) },
  );
}

function bodyFor(schema: JsonSchema | undefined, where: string): fc.Arbitrary<string> {
  const props = resolve(schema).properties ?? {};
  const structured = fc
    .tuple(
      fieldsOf(resolve(schema)),
      fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 2 }),
      fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    )
    .chain(([chosen, extra, withExtra]) =>
      fc.tuple(...chosen.map((n) => valueFor(n, props[n] ?? {}, where))).map((values) => {
        const body: Record<string, unknown> = {};
        chosen.forEach((n, i) => (body[n] = values[i]));
        if (withExtra) for (const [k, v] of extra) body[k] = v;
        return JSON.stringify(body);
      }),
    );
  return fc.oneof(
    { weight: 8, arbitrary: structured },
    { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: rawBody },
    { weight: 1, arbitrary: deepBody },
  );
}

/** Header values fetch can send: Latin-1, no NUL, CR or LF (those are tried over a raw socket below). */
const headerSafe = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 300 });

const authorization = fc.oneof(
  { weight: 15, arbitrary: fc.constant(`Bearer ${token}`) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'bearer ' + token,
        'Bearer  ' + token + '  ',
        'Basic dXNlcjpwYXNz',
        `Bearer ${token}x`,
        `Bearer ${token.slice(0, -1)}`,
        `Bearer ${token} ${token}`,
        'Bearer sk_live_',
        `Bearer sk_live_${'A'.repeat(600)}`,
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        "Bearer ' OR 1=1 --",
        'Bearer sk_live_%00',
      ),
      headerSafe.map((h) => `Bearer ${h}`),
      headerSafe,
    ),
  },
);

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json; charset=bogus',
      'application/merge-patch+json',
      'application/vnd.api+json',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '*/*',
      'application/json, text/plain',
      '',
      'application/json\t',
    ),
  },
);

const extraHeaders = fc.record(
  {
    'idempotency-key': fc.oneof(fc.uuid(), headerSafe, fc.constantFrom('x'.repeat(256), 'key with spaces', 'é', "' OR 1=1 --")),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml;q=0.9', 'image/png'),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', "' OR 1=1 --", '::1, 10.0.0.1', 'x'.repeat(1000)),
    'request-id': headerSafe,
    'accept-charset': fc.constantFrom('utf-16', 'iso-8859-1', 'bogus'),
  },
  { requiredKeys: [] },
);

/** A path segment: a real id, a hostile string percent-encoded, or raw bytes that are not valid percent-encoding. */
function segmentFor(name: string, path: string): fc.Arbitrary<string> {
  const real = realValuesFor(name === 'stage_id' ? 'stage_id' : 'id', path);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(real.length ? real : ['x'])) },
    { weight: 4, arbitrary: hostileString.filter((s) => s.length > 0).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '\ufffd'))) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%ZZ', '%E0%A4%A', '%C0%AF', '%00', '%2F', '..', '%2e%2e', '.', 'a%0d%0aX-Injected:%201', '%ED%A0%80', '%F4%90%80%80') },
  );
}

/** A query string: known parameters (and sometimes unknown or repeated ones) with hostile values. */
function queryFor(params: { name: string; schema?: JsonSchema }[], path: string): fc.Arbitrary<string> {
  const entry = (name: string, schema: JsonSchema | undefined) =>
    fc
      .oneof(
        { weight: 3, arbitrary: valueFor(name, schema ?? {}, path).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '')) },
        { weight: 1, arbitrary: timestampString },
      )
      .map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd'))}`);
  const known = params.map((p) => entry(p.name, p.schema));
  const raw = fc.constantFrom('limit=1&limit=2', 'cursor=%ZZ', 'q=%00', 'q=%E0%A4%A', 'a[b]=1', '=x', '&&&', 'limit', 'limit=', '__proto__=1', 'q=a%0d%0aX-Injected:%201');
  return fc
    .tuple(
      fc.subarray(known.map((_, i) => i)),
      sometimes(
        fc.array(fc.oneof(raw, fc.tuple(hostileKey, hostileString).map(([k, v]) => `${encodeURIComponent(k.replace(/[\ud800-\udfff]/g, '_'))}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '_'))}`)), { minLength: 1, maxLength: 2 }),
        20,
        [],
      ),
    )
    .chain(([chosen, extra]) => fc.tuple(...chosen.map((i) => known[i] ?? fc.constant(''))).map((parts) => [...parts, ...extra].filter(Boolean).join('&')));
}

interface Operation {
  method: string;
  path: string;
  operationId: string;
  pathParams: string[];
  query: { name: string; schema?: JsonSchema }[];
  body: JsonSchema | undefined;
}

const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    operationId: op.operationId,
    pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
    query: (op.parameters ?? []).filter((p) => p.in === 'query'),
    body: op.requestBody?.content['application/json']?.schema,
  })),
);

/** One property per endpoint, per tool of both servers, and the raw JSON-RPC one. */
const budget = new PropertyBudget({
  totalMs: PROPERTIES_BUDGET_MS,
  properties: operations.length + CRM_TOOLS.length + STUDIO_TOOLS.length + 1,
  maxPerPropertyMs: PROPERTY_MAX_MS,
});

function requestFor(op: Operation): fc.Arbitrary<RawRequest> {
  const segments = op.pathParams.map((name) => segmentFor(name, op.path));
  const method = fc.oneof({ weight: 12, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') });
  return fc
    .record({
      method,
      segments: fc.tuple(...segments),
      query: queryFor(op.query, op.path),
      body: op.body ? bodyFor(op.body, op.path) : sometimes(rawBody, 15, undefined),
      authorization: fc.option(authorization, { nil: undefined, freq: 20 }),
      contentType: fc.option(contentType, { nil: undefined, freq: 20 }),
      extra: sometimes(extraHeaders, 25, {}),
      encoding: sometimes(fc.constantFrom('gzip', 'deflate', 'br', 'zstd', 'identity', 'x-bogus', 'gzip, gzip'), 6, undefined),
    })
    .map(({ method, segments, query, body, authorization, contentType, extra, encoding }) => {
      let path = op.path;
      op.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, segments[i] ?? '')));
      const headers: Record<string, string> = { ...extra };
      if (encoding !== undefined) headers['content-encoding'] = encoding;
      if (authorization !== undefined) headers.authorization = authorization;
      if (contentType !== undefined && body !== undefined) headers['content-type'] = contentType;
      const withBody = method !== 'GET' && method !== 'HEAD';
      return { method, path: query ? `${path}?${query}` : path, headers, body: withBody ? body : undefined };
    });
}

// ---------------------------------------------------------------- checks
let lastFingerprint: Record<string, string> | undefined;
const tally = { requests: 0, byStatus: new Map<number, number>(), toolCalls: 0, toolErrors: 0 };

function describeRequest(req: RawRequest): string {
  return `${req.method} ${brief(req.path, 300)} headers=${brief(req.headers, 300)} body=${brief(req.body ?? null, 300)}`;
}

/** A response is acceptable: no 5xx, no leak, no injected header, the error shape on /v1, and a 4xx changed nothing. */
async function exercise(req: RawRequest): Promise<RawResponse> {
  const before = lastFingerprint ?? (await fingerprint(stack.db));
  lastFingerprint = undefined;
  const res = await send(stack.baseUrl, req);
  tally.requests++;
  tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
  const after = await fingerprint(stack.db);
  if (process.env.FUZZ_TRACE) appendFileSync(process.env.FUZZ_TRACE, `${res.status} ${describeRequest(req)} → ${brief(res.text, 200)}\n`);
  if (res.status >= 500) throw new Error(`${res.status} for ${describeRequest(req)}\n→ ${brief(res.text)}`);
  const leak = leakIn(res.text) ?? leakIn(JSON.stringify([...res.headers.entries()]));
  if (leak) throw new Error(`leak in the response to ${describeRequest(req)}: ${leak}`);
  if (res.headers.has('x-injected')) throw new Error(`header injection by ${describeRequest(req)}`);
  if (res.status >= 400) {
    const changed = changedTables(before, after);
    if (changed.length > 0) throw new Error(`${res.status} changed ${changed.join(', ')}: ${describeRequest(req)}\n→ ${brief(res.text)}`);
    const path = req.path.split('?')[0] ?? '';
    if (path.startsWith('/v1/') && req.method !== 'HEAD') {
      const error = (res.json as { error?: { code?: unknown; request_id?: unknown } } | null)?.error;
      if (typeof error?.code !== 'string' || typeof error.request_id !== 'string') {
        throw new Error(`${res.status} without the error envelope for ${describeRequest(req)}\n→ ${brief(res.text)}`);
      }
    }
  }
  lastFingerprint = after;
  return res;
}

// ---------------------------------------------------------------- REST

/** Sends bytes the fetch API refuses to send (CR, LF and NUL in headers), and reads the status line. */
function rawHttp(request: string): Promise<string> {
  const { port } = new URL(stack.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let data = '';
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => {
      socket.destroy();
      reject(new Error(`hang: no answer to ${JSON.stringify(request.slice(0, 200))}`));
    });
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', (error) => (data ? resolve(data) : reject(error)));
    socket.end(request, 'latin1');
  });
}

// ---------------------------------------------------------------- MCP tools
const clients: Record<McpServerName, Client> = {
  crm: await connectMcp(stack.baseUrl, 'crm', token),
  studio: await connectMcp(stack.baseUrl, 'studio', token),
};
t.teardown(() => Promise.all(Object.values(clients).map((c) => c.close())));

interface ToolCase {
  server: McpServerName;
  name: string;
  args: Record<string, unknown>;
}

/** Calls a tool; an error result, an invalid-params error or a 4xx from the transport must change nothing and leak nothing. */
async function callTool({ server, name, args }: ToolCase): Promise<void> {
  const before = lastFingerprint ?? (await fingerprint(stack.db));
  lastFingerprint = undefined;
  const what = `${server}/${name} ${brief(args, 500)}`;
  let refused: string | null = null;
  tally.toolCalls++;
  try {
    const result = (await clients[server].callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS })) as ToolResult;
    const text = toolText(result);
    const leak = leakIn(text);
    if (leak) throw new Error(`leak in ${what}: ${leak}`);
    if (result.isError) {
      tally.toolErrors++;
      if (/^internal:|internal error|Output validation error/i.test(text)) throw new Error(`internal error from ${what}: ${brief(text)}`);
      refused = text;
    }
  } catch (error) {
    if (error instanceof McpError && error.code === -32001) throw new Error(`hang: ${what} (${error.message})`, { cause: error });
    if (error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400 && error.code < 500) {
      refused = error.message;
    } else if (error instanceof McpError && error.code === -32602 && !/output schema|structured content/i.test(error.message)) {
      refused = error.message;
    } else {
      throw new Error(`${what} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, { cause: error });
    }
    const leak = leakIn(refused);
    if (leak) throw new Error(`leak in ${what}: ${leak}`, { cause: error });
  }
  const after = await fingerprint(stack.db);
  if (refused !== null) {
    const changed = changedTables(before, after);
    if (changed.length > 0) throw new Error(`a refused ${what} changed ${changed.join(', ')}: ${brief(refused)}`);
  }
  lastFingerprint = after;
}

const toolLists = {
  crm: (await clients.crm.listTools()).tools,
  studio: (await clients.studio.listTools()).tools,
};

function argsFor(tool: { name: string; inputSchema: { properties?: Record<string, object>; required?: string[] } }): fc.Arbitrary<Record<string, unknown>> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(props);
  const structured = fc
    .tuple(fieldsOf(tool.inputSchema as JsonSchema), sometimes(fc.dictionary(hostileKey, hostileValue, { maxKeys: 2 }), 15, {}))
    .chain(([chosen, extra]) =>
      fc.tuple(...chosen.map((n) => valueFor(n, props[n] ?? {}, tool.name))).map((values) => {
        const args: Record<string, unknown> = { ...extra };
        chosen.forEach((n, i) => (args[n] = values[i]));
        return args;
      }),
    );
  // fast-check prints values recursively: a deep one names its depth instead. (The SDK client itself
  // cannot serialise much deeper; deeper arguments go as raw JSON-RPC below.)
  const deep = fc.constantFrom(1_000, 2_000).map((depth) => ({
    [names[0] ?? 'x']: JSON.parse(deepJson(depth, 'array')) as unknown,
    [fc.toStringMethod]: () => `{${names[0] ?? 'x'}: arrays nested ${depth} deep}`,
  }));
  return fc.oneof(
    { weight: 8, arbitrary: structured },
    { weight: 2, arbitrary: fc.dictionary(hostileKey, hostileValue, { maxKeys: 4 }) },
    { weight: 1, arbitrary: deep },
  );
}

// ---------------------------------------------------------------- the properties
t.test('the fuzzed endpoints are exactly the documented ones', async (t) => {
  t.same(operations.map((o) => o.operationId).sort(), V1_ENDPOINTS.map((e) => e.operationId).sort());
});

t.test('every REST endpoint under fuzzed paths, queries, bodies and headers', async (t) => {
  for (const op of operations) {
    await t.test(`${op.method} ${op.path}`, async (t) => {
      await checkProperty(t, `${op.method} ${op.path}`, requestFor(op), async (req) => {
        await exercise(req);
      }, { numRuns: REST_RUNS, budget });
      t.pass(`${op.operationId}: no 5xx, no hang, no leak; 4xx changed nothing`);
    });
  }
});

t.test('specific hostile inputs on every endpoint with a body', async (t) => {
  const withBody = operations.filter((o) => o.body);
  const pathOf = (op: Operation) => op.path.replace('{id}', op.path.startsWith('/v1/pipelines') ? (REAL.pipeline[1] ?? '') : (REAL.contact[0] ?? '')).replace('{stage_id}', REAL.stage[0] ?? '');
  const json = { ...auth, 'content-type': 'application/json' };
  for (const op of withBody) {
    const huge = await exercise({ method: op.method, path: pathOf(op), headers: json, body: JSON.stringify({ name: 'x'.repeat(1_048_576), first_name: 'y' }) });
    t.equal(huge.status, 413, `${op.operationId}: a 1 MB body is a 413`);
    for (const depth of [1_000, 10_000, 40_000]) {
      const deep = await exercise({ method: op.method, path: pathOf(op), headers: json, body: `{"custom_fields":${deepJson(depth, 'array')}}` });
      t.equal(deep.status, 400, `${op.operationId}: nesting ${depth} deep is a 400`);
    }
    const bomb = await exercise({ method: op.method, path: pathOf(op), headers: { ...json, 'content-encoding': 'gzip' }, body: 'not gzip at all' });
    t.ok(bomb.status >= 400 && bomb.status < 500, `${op.operationId}: a body that is not the gzip it claims is a ${bomb.status}`);
  }
  const longAuth = await exercise({ method: 'GET', path: '/v1/me', headers: { authorization: `Bearer sk_live_${'A'.repeat(600)}` } });
  t.equal(longAuth.status, 401, 'an over-long bearer token is a 401');
  const nulInPath = await exercise({ method: 'GET', path: '/v1/contacts/%00', headers: auth });
  t.ok(nulInPath.status >= 400 && nulInPath.status < 500, `NUL in an id is a ${nulInPath.status}`);
});

t.test('header injection over a raw socket: malformed headers are refused, never reflected', async (t) => {
  const host = new URL(stack.baseUrl).host;
  const cases = [
    `GET /v1/me HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nX-Test: a\rX-Injected: 1\r\nConnection: close\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\u0000X-Injected: 1\r\nConnection: close\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n X-Injected: 1\r\nConnection: close\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\nHost: ${host}\r\nIdempotency-Key: a\nX-Injected: 1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    `GET /v1/contacts/a\r\nX-Injected: 1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    `POST /v1/contacts HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 50\r\nConnection: close\r\n\r\n{"a":1}`,
    `POST /v1/contacts HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\nConnection: close\r\n\r\n0\r\n\r\n`,
    `GET /v1/me HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n${'X-Pad: ' + 'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
  ];
  const before = await fingerprint(stack.db);
  for (const request of cases) {
    const reply = await rawHttp(request);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(reply)?.[1] ?? 0);
    t.ok(status === 0 || status < 500, `${JSON.stringify(request.slice(0, 90))}… → ${status || 'connection closed'}`);
    // Refused by the gateway or already by Node's HTTP parser: the same JSON error envelope.
    if (status >= 400) t.match(reply, /\r\n\r\n\{"error":\{"type":"[a-z_]+","code":"[a-z_]+",.*"request_id":"[a-z]+_\w+"/s, 'the JSON error envelope');
    t.notMatch(reply, /^X-Injected:/im, 'nothing injected into the response');
    t.equal(leakIn(reply), null, 'no leak');
  }
  const longUrl = await send(stack.baseUrl, { method: 'GET', path: `/v1/contacts?q=${'a'.repeat(20_000)}`, headers: auth });
  t.equal(longUrl.status, 431, 'a URL over 16 KB is a 431');
  t.match(longUrl.json, { error: { code: 'validation_failed', message: /larger than 16 KB/ } });
  t.equal(longUrl.headers.get('request-id'), (longUrl.json as { error: { request_id: string } }).error.request_id);
  t.same(changedTables(before, await fingerprint(stack.db)), [], 'nothing changed');
  lastFingerprint = undefined;
});

t.test('the fuzzed tools are exactly those the servers declare', async (t) => {
  t.same(toolLists.crm.map((x) => x.name).sort(), CRM_TOOLS.map((x) => x.name).sort());
  t.same(toolLists.studio.map((x) => x.name).sort(), STUDIO_TOOLS.map((x) => x.name).sort());
});

t.test('every tool of both servers under fuzzed arguments', async (t) => {
  for (const server of ['crm', 'studio'] as const) {
    for (const tool of toolLists[server]) {
      await t.test(`${server}/${tool.name}`, async (t) => {
        await checkProperty(t, `${server}/${tool.name}`, argsFor(tool), async (args) => {
          await callTool({ server, name: tool.name, args });
        }, { numRuns: TOOL_RUNS, budget });
        t.pass(`${tool.name}: no internal error, no hang, no leak; refusals changed nothing`);
      });
    }
  }
  await t.test('an unknown tool, a huge argument, arguments nested 40 000 deep', async (t) => {
    await callTool({ server: 'crm', name: 'drop_tables', args: {} });
    await callTool({ server: 'crm', name: '\u0000', args: {} });
    await callTool({ server: 'crm', name: 'create_contact', args: { first_name: 'x'.repeat(1_048_576), phone: '+1 415 555 0100' } });
    for (const server of ['crm', 'studio'] as const) {
      for (const [key, depth] of [['first_name', 40_000], ['custom_fields', 40_000], ['x', 40_000], ['name', 10_000]] as const) {
        const res = await exercise({
          method: 'POST',
          path: `/mcp/${server}`,
          headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${server === 'crm' ? 'create_contact' : 'create_pipeline'}","arguments":{"${key}":${deepJson(depth, 'array')}}}}`,
        });
        t.ok(res.status < 500 && !/"code":-32603/.test(res.text), `${server}: ${key} nested ${depth} deep → ${res.status} ${brief(res.text, 160)}`);
      }
    }
  });
});

t.test('raw JSON-RPC bodies to both tool servers', async (t) => {
  const rpcBody = fc.oneof(
    fc.record({
      jsonrpc: fc.oneof(fc.constant('2.0'), hostileValue),
      id: fc.oneof(fc.integer(), hostileString, fc.constant(null), hostileValue),
      method: fc.oneof(fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping', 'resources/list', 'notifications/initialized', 'logging/setLevel'), hostileString),
      params: fc.oneof(
        hostileValue,
        fc.record({ name: fc.oneof(fc.constantFrom(...toolLists.crm.map((x) => x.name)), hostileString), arguments: hostileValue }),
      ),
    }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
    fc.array(fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.constant('tools/call'), params: fc.record({ name: fc.constant('whoami'), arguments: fc.constant({}) }) }), { maxLength: 3 }).map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    rawBody,
    deepBody,
  );
  const rpc = fc.record({
    server: fc.constantFrom('crm', 'studio'),
    body: rpcBody,
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', 'text/html'),
    contentType: contentType,
    authorization: fc.option(authorization, { nil: undefined, freq: 10 }),
    protocol: sometimes(fc.constantFrom('2025-06-18', '2025-03-26', '1999-01-01', "' OR 1=1 --"), 30, undefined),
    method: fc.oneof({ weight: 10, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT', 'OPTIONS') }),
  });
  await checkProperty(t, 'raw JSON-RPC', rpc, async (r) => {
    const headers: Record<string, string> = { accept: r.accept, 'content-type': r.contentType };
    if (r.authorization) headers.authorization = r.authorization;
    if (r.protocol) headers['mcp-protocol-version'] = r.protocol;
    const res = await exercise({ method: r.method, path: `/mcp/${r.server}`, headers, body: r.method === 'GET' ? undefined : r.body });
    if (/"code":-32603/.test(res.text)) throw new Error(`JSON-RPC internal error for ${brief(r)}: ${brief(res.text)}`);
    if (/"isError":true/.test(res.text) && /internal(?: error)?:/i.test(res.text)) throw new Error(`internal tool error for ${brief(r)}: ${brief(res.text)}`);
  }, { numRuns: RPC_RUNS, budget });
  t.pass('no 5xx, no internal error, no leak');
});

t.test('the service logged no unhandled error and no process died', async (t) => {
  const output = await stack.allOutput();
  const errors = output.split('\n').filter((line) => /"level":(?:"error"|"fatal"|50|60)/.test(line));
  t.same(errors.slice(0, 5), [], 'no error-level log line');
  t.ok(stack.gateway.running && stack.workers.every((w) => w.running), 'every process still runs');
  const statuses = [...tally.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  t.comment(`${tally.requests} HTTP requests (${statuses}); ${tally.toolCalls} tool calls, ${tally.toolErrors} tool errors`);
});
