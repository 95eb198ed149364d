import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import t from 'tap';
import { useStack } from '../helpers/shared-stack.js';
import type { BootstrapResult } from '../helpers/stack.js';
import {
  brief,
  changedTables,
  checkProperty,
  connectMcp,
  leakIn,
  PropertyBudget,
  REQUEST_TIMEOUT_MS,
  seededJson,
  sendJson,
  toolText,
  workspaceFingerprints,
  type ToolResult,
} from './property-support.js';

/**
 * Two workspaces, A and B, and random sequences of REST and tool calls in which each one
 * uses the other's ids, cursors, tokens, phones, e-mails, names and idempotency keys:
 * in paths, in filters, and in creates and updates that would link to them.
 *
 * After every call: no 5xx; nothing of the other workspace in the answer (unless the
 * request itself carried it); the other workspace's rows unchanged; a call aimed at the
 * other workspace refused (4xx, tool error) or, for a filter, empty. After every
 * sequence, SQL: every reference stays inside its workspace, and no row of one
 * workspace carries the other's marker.
 *
 * Runs: NUM_RUNS sequences of up to MAX_ACTIONS calls (scaled by FC_RUNS_FACTOR; FC_SEED
 * and FC_PATH replay what fc.assert reports), for at most TIME_LIMIT_MS and within the
 * file's budget (counted from the start of the process, stack and seed included).
 */
const NUM_RUNS = 150;
const MAX_ACTIONS = 30;
const TIME_LIMIT_MS = 60_000;
const budget = new PropertyBudget({ totalMs: 150_000, properties: 1, maxPerPropertyMs: TIME_LIMIT_MS });

const stack = await useStack(t);

const ALL_SCOPES = ['contacts:write', 'deals:write', 'schema:write', 'tokens:write', 'studio:write'];
const ID = /\b(?:con|deal|note|pipe|stg|fld|tok|usr|ws|org|mem)_[0-9A-Z]{20,}\b/g;

interface Side {
  key: 'A' | 'B';
  /** In every string this workspace stores, so a leak is visible anywhere. */
  mark: string;
  ws: BootstrapResult;
  token: string;
  areaCode: string;
  nextPhone: number;
  users: string[];
  tokenIds: string[];
  contacts: string[];
  deals: string[];
  /** Notes on contacts[0] and deals[0]. */
  notes: string[];
  pipelines: string[];
  /** Stages of pipelines[i] (active ones), by pipeline id. */
  stagesOf: Map<string, string[]>;
  stages: string[];
  stageNames: string[];
  pipelineNames: string[];
  fields: string[];
  contactKeys: string[];
  phones: string[];
  emails: string[];
  firstNames: string[];
  /** Cursors from REST lists: the path they continue, with the filters they were issued for. */
  restCursors: { path: string; filters: string; cursor: string }[];
  toolCursors: { tool: 'find_contacts' | 'find_deals'; cursor: string }[];
  /** Everything of this workspace that must never reach the other one. */
  secrets: Set<string>;
  crm: Client;
  studio: Client;
}

type Json = Record<string, unknown>;

async function seedOk<T = Json>(side: Pick<Side, 'token'>, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
  return seededJson<T>(await sendJson(stack.baseUrl, side.token, method, path, body, headers), `${method} ${path}`);
}

async function seed(key: 'A' | 'B', mark: string, areaCode: string): Promise<Side> {
  const lower = mark.toLowerCase();
  const ws = await stack.bootstrap({ org: `Org ${mark}`, workspace: `Workspace ${mark}`, email: `admin@${lower}.test`, defaultCountry: 'US' });
  const member = await stack.addMember(ws.workspace.id, `member@${lower}.test`, ['contacts.write', 'deals.write'], 'all');
  const token = await stack.token(ws.workspace.id, ALL_SCOPES);
  const base = { token };

  const spare = await seedOk<{ id: string; token: string }>(base, 'POST', '/v1/tokens', { name: `Spare ${mark}`, scopes: ['contacts:read'] });
  const tokenIds = (await seedOk<{ data: { id: string }[] }>(base, 'GET', '/v1/tokens?limit=100')).data.map((x) => x.id);

  const fields = [
    await seedOk<{ id: string }>(base, 'POST', '/v1/custom-fields', { object_type: 'contact', key: `${lower}_note`, label: `Note ${mark}`, type: 'text' }),
    await seedOk<{ id: string }>(base, 'POST', '/v1/custom-fields', { object_type: 'contact', key: `${lower}_tier`, label: `Tier ${mark}`, type: 'select', options: [`gold ${mark}`, `silver ${mark}`] }),
    await seedOk<{ id: string }>(base, 'POST', '/v1/custom-fields', { object_type: 'deal', key: `${lower}_source`, label: `Source ${mark}`, type: 'text' }),
  ].map((f) => f.id);

  await seedOk(base, 'POST', '/v1/pipelines', { name: `Pipeline ${mark}`, stages: [`Open ${mark}`, `Won ${mark}`, `Lost ${mark}`] });
  const pipelines = (await seedOk<{ data: { id: string; name: string; stages: { id: string; name: string; archived: boolean }[] }[] }>(base, 'GET', '/v1/pipelines')).data;
  const marked = pipelines.find((p) => p.name.includes(mark));
  const stagesOf = new Map(pipelines.map((p) => [p.id, p.stages.filter((s) => !s.archived).map((s) => s.id)]));

  const side: Side = {
    key,
    mark,
    ws,
    token,
    areaCode,
    nextPhone: 100,
    users: [ws.user.id, member],
    tokenIds,
    contacts: [],
    deals: [],
    notes: [],
    pipelines: pipelines.map((p) => p.id),
    stagesOf,
    stages: pipelines.flatMap((p) => p.stages.map((s) => s.id)),
    stageNames: (marked?.stages ?? []).map((s) => s.name),
    pipelineNames: marked ? [marked.name] : [],
    fields,
    contactKeys: [`${lower}_note`, `${lower}_tier`],
    phones: [],
    emails: [],
    firstNames: [],
    restCursors: [],
    toolCursors: [],
    secrets: new Set([mark, lower, ws.workspace.id, ws.organization.id, ws.user.id, member, token, spare.token, ...tokenIds, ...fields]),
    crm: await connectMcp(stack.baseUrl, 'crm', token),
    studio: await connectMcp(stack.baseUrl, 'studio', token),
  };

  for (let i = 0; i < 4; i++) {
    const phone = `+1${areaCode}55501${10 + i}`;
    const c = await seedOk<{ id: string; email: string }>(base, 'POST', '/v1/contacts', {
      first_name: `${key}${i} ${mark}`,
      last_name: mark,
      email: `c${i}@${lower}.test`,
      phone,
      owner_id: side.users[i % 2],
      custom_fields: { [`${lower}_note`]: `note ${mark}`, [`${lower}_tier`]: `gold ${mark}` },
    });
    side.contacts.push(c.id);
    side.phones.push(phone);
    side.emails.push(c.email);
    side.firstNames.push(`${key}${i} ${mark}`);
  }
  const openStages = marked ? (stagesOf.get(marked.id) ?? []) : [];
  for (let i = 0; i < 3; i++) {
    const d = await seedOk<{ id: string }>(base, 'POST', '/v1/deals', {
      name: `Deal ${i} ${mark}`,
      contact_id: side.contacts[i],
      stage_id: openStages[i % openStages.length],
      amount: 1000 + i,
      currency: 'USD',
      owner_id: side.users[i % 2],
      custom_fields: { [`${lower}_source`]: `source ${mark}` },
    });
    side.deals.push(d.id);
  }
  side.notes.push((await seedOk<{ id: string }>(base, 'POST', '/v1/notes', { contact_id: side.contacts[0], body: `Contact note ${mark}` })).id);
  side.notes.push((await seedOk<{ id: string }>(base, 'POST', '/v1/notes', { deal_id: side.deals[0], body: `Deal note ${mark}` })).id);
  for (const id of [...side.contacts, ...side.deals, ...side.notes, ...side.pipelines, ...side.stages]) side.secrets.add(id);
  for (const s of [...side.phones, ...side.emails, ...side.firstNames]) side.secrets.add(s);

  // Cursors of every list, with and without filters; and of the tools.
  for (const [path, filters] of [
    ['/v1/contacts', ''],
    ['/v1/contacts', 'status=active'],
    ['/v1/deals', ''],
    ['/v1/deals', `pipeline_id=${marked?.id ?? ''}`],
    ['/v1/custom-fields', ''],
    ['/v1/custom-fields', 'object_type=contact'],
    ['/v1/tokens', ''],
  ] as const) {
    const page = await seedOk<{ links: { next: string | null } }>(base, 'GET', `${path}?limit=1${filters ? `&${filters}` : ''}`);
    const cursor = page.links.next ? new URL(page.links.next).searchParams.get('cursor') : null;
    if (cursor) side.restCursors.push({ path, filters, cursor });
  }
  for (const tool of ['find_contacts', 'find_deals'] as const) {
    const r = (await side.crm.callTool({ name: tool, arguments: { limit: 1 } })) as ToolResult;
    const cursor = r.structuredContent?.next_cursor;
    if (typeof cursor === 'string') side.toolCursors.push({ tool, cursor });
  }
  return side;
}

const A = await seed('A', 'ALPHAMARK', '415');
const B = await seed('B', 'BRAVOMARK', '212');
t.teardown(() => Promise.all([A.crm.close(), A.studio.close(), B.crm.close(), B.studio.close()]));

/** Idempotency keys both workspaces use: a replay across workspaces would hand one the other's record. */
const SHARED_KEYS = ['shared-key-0', 'shared-key-1', 'shared-key-2', 'shared-key-3'];
for (const side of [A, B]) {
  for (const [i, key] of SHARED_KEYS.slice(0, 2).entries()) {
    const phone = `+1${side.areaCode}55502${10 + i}`;
    const c = await seedOk<{ id: string }>(side, 'POST', '/v1/contacts', { first_name: `Idem ${side.mark}`, phone }, { 'idempotency-key': key });
    side.contacts.push(c.id);
    side.secrets.add(c.id);
    side.phones.push(phone);
    side.secrets.add(phone);
  }
}

// ---------------------------------------------------------------- actions
type Expect = 'reject' | 'empty' | 'any';

type Call =
  | { via: 'rest'; method: string; path: string; body?: unknown; headers?: Record<string, string>; bearer?: string }
  | { via: 'tool'; server: 'crm' | 'studio'; name: string; args: Json };

interface Planned {
  call: Call;
  expect: Expect;
}

/** Picks: the random numbers an action draws on, resolved against the pools when it runs. */
class Picks {
  constructor(private readonly values: number[]) {}
  private i = 0;
  next(): number {
    return this.values[this.i++ % this.values.length] ?? 0;
  }
  of<T>(list: readonly T[]): T {
    if (list.length === 0) throw new Error('empty pool');
    return list[this.next() % list.length] as T;
  }
  chance(percent: number): boolean {
    return this.next() % 100 < percent;
  }
}

function ownPhone(side: Side): string {
  side.nextPhone = side.nextPhone >= 9999 ? 1000 : side.nextPhone + 1;
  return `+1${side.areaCode}555${String(side.nextPhone).padStart(4, '0')}`;
}

/** Some of the victim's references (at least one), the rest the actor's own or left out. */
function dealRefs(me: Side, them: Side, p: Picks): Json {
  const mask = (p.next() % 15) + 1;
  const body: Json = {};
  if (mask & 1) body.contact_id = p.of(them.contacts);
  else if (p.chance(50)) body.contact_id = p.of(me.contacts);
  if (mask & 2) body.stage_id = p.of(them.stages);
  if (mask & 4) body.pipeline_id = p.of(them.pipelines);
  if (mask & 8) body.owner_id = p.of(them.users);
  else if (p.chance(50)) body.owner_id = p.of(me.users);
  if (!(mask & 2) && !(mask & 4) && p.chance(50)) {
    const pipeline = p.of(me.pipelines);
    body.pipeline_id = pipeline;
    body.stage_id = p.of(me.stagesOf.get(pipeline) ?? me.stages);
  }
  return body;
}

const ACTIONS: Record<string, (me: Side, them: Side, p: Picks) => Planned> = {
  restReadForeign: (_me, them, p) => {
    const [path, pool] = p.of([
      ['/v1/contacts/', them.contacts],
      ['/v1/deals/', them.deals],
      ['/v1/pipelines/', them.pipelines],
      ['/v1/custom-fields/', them.fields],
    ] as const);
    return { call: { via: 'rest', method: 'GET', path: `${path}${p.of(pool)}` }, expect: 'reject' };
  },
  restPatchForeign: (me, them, p) => {
    const choices: Planned['call'][] = [
      { via: 'rest', method: 'PATCH', path: `/v1/contacts/${p.of(them.contacts)}`, body: { first_name: `Taken by ${me.mark}` } },
      { via: 'rest', method: 'PATCH', path: `/v1/contacts/${p.of(them.contacts)}`, body: { status: 'archived', owner_id: p.of(me.users) } },
      { via: 'rest', method: 'PATCH', path: `/v1/deals/${p.of(them.deals)}`, body: { name: `Taken by ${me.mark}`, stage_id: p.of(me.stages) } },
      { via: 'rest', method: 'PATCH', path: `/v1/pipelines/${p.of(them.pipelines)}`, body: { name: `Taken by ${me.mark}`, is_default: true } },
      { via: 'rest', method: 'PATCH', path: `/v1/custom-fields/${p.of(them.fields)}`, body: { label: `Taken by ${me.mark}`, archived: true } },
      { via: 'rest', method: 'PATCH', path: `/v1/pipelines/${p.of(them.pipelines)}/stages/${p.of(them.stages)}`, body: { name: `Taken by ${me.mark}` } },
      { via: 'rest', method: 'PATCH', path: `/v1/pipelines/${p.of(me.pipelines)}/stages/${p.of(them.stages)}`, body: { position: 0 } },
      { via: 'rest', method: 'PATCH', path: `/v1/pipelines/${p.of(them.pipelines)}/stages/${p.of(me.stages)}`, body: { position: 0 } },
    ];
    return { call: p.of(choices), expect: 'reject' };
  },
  restDeleteForeign: (me, them, p) => {
    const paths = [
      `/v1/contacts/${p.of(them.contacts)}`,
      `/v1/deals/${p.of(them.deals)}`,
      `/v1/custom-fields/${p.of(them.fields)}`,
      `/v1/pipelines/${p.of(them.pipelines)}/stages/${p.of(them.stages)}`,
      `/v1/pipelines/${p.of(me.pipelines)}/stages/${p.of(them.stages)}`,
      `/v1/tokens/${p.of(them.tokenIds)}`,
    ];
    return { call: { via: 'rest', method: 'DELETE', path: p.of(paths) }, expect: 'reject' };
  },
  restCreateStageForeign: (me, them, p) => ({
    call: { via: 'rest', method: 'POST', path: `/v1/pipelines/${p.of(them.pipelines)}/stages`, body: { name: `Sneak ${me.mark}`, position: 0 } },
    expect: 'reject',
  }),
  restCreateDealForeignRefs: (me, them, p) => ({
    call: { via: 'rest', method: 'POST', path: '/v1/deals', body: { name: `Deal of ${me.mark}`, ...dealRefs(me, them, p) }, headers: p.chance(30) ? { 'idempotency-key': p.of(SHARED_KEYS) } : undefined },
    expect: 'reject',
  }),
  restUpdateDealForeignRefs: (me, them, p) => ({
    call: { via: 'rest', method: 'PATCH', path: `/v1/deals/${p.of(me.deals)}`, body: dealRefs(me, them, p) },
    expect: 'reject',
  }),
  restContactForeignRefs: (me, them, p) => {
    const foreign = p.of<Json>([{ owner_id: p.of(them.users) }, { custom_fields: { [p.of(them.contactKeys)]: `x ${me.mark}` } }, { custom_fields: { [p.of(them.contactKeys)]: null } }]);
    return p.chance(50)
      ? { call: { via: 'rest', method: 'POST', path: '/v1/contacts', body: { first_name: `New ${me.mark}`, phone: ownPhone(me), ...foreign } }, expect: 'reject' }
      : { call: { via: 'rest', method: 'PATCH', path: `/v1/contacts/${p.of(me.contacts)}`, body: foreign }, expect: 'reject' };
  },
  restForeignFilter: (_me, them, p) => {
    const queries = [
      `/v1/deals?contact_id=${p.of(them.contacts)}`,
      `/v1/deals?stage=${p.of(them.stages)}`,
      `/v1/deals?stage=${encodeURIComponent(p.of(them.stageNames))}`,
      `/v1/deals?pipeline_id=${p.of(them.pipelines)}`,
      `/v1/deals?pipeline_id=${p.of(them.pipelines)}&stage=${p.of(them.stages)}&contact_id=${p.of(them.contacts)}`,
      `/v1/contacts?phone=${encodeURIComponent(p.of(them.phones))}`,
      `/v1/contacts?email=${encodeURIComponent(p.of(them.emails))}`,
      `/v1/contacts?q=${encodeURIComponent(them.mark)}`,
      `/v1/contacts?q=${encodeURIComponent(p.of(them.firstNames))}`,
      `/v1/contacts?q=${encodeURIComponent(p.of(them.phones))}&status=active`,
    ];
    return { call: { via: 'rest', method: 'GET', path: p.of(queries) }, expect: 'empty' };
  },
  restForeignCursor: (me, them, p) => {
    const theirs = p.of(them.restCursors);
    // The list it came from or another one, with its own filters or the caller's.
    const path = p.chance(70) ? theirs.path : p.of(['/v1/contacts', '/v1/deals', '/v1/custom-fields', '/v1/tokens']);
    const filters = p.chance(50) ? theirs.filters : (me.restCursors.find((c) => c.path === path)?.filters ?? '');
    return { call: { via: 'rest', method: 'GET', path: `${path}?limit=1&cursor=${encodeURIComponent(theirs.cursor)}${filters ? `&${filters}` : ''}` }, expect: 'reject' };
  },
  restIdempotentCreate: (me, _them, p) => {
    const key = p.of(SHARED_KEYS);
    return p.chance(60)
      ? { call: { via: 'rest', method: 'POST', path: '/v1/contacts', body: { first_name: `Idem ${me.mark}`, phone: ownPhone(me) }, headers: { 'idempotency-key': key } }, expect: 'any' }
      : { call: { via: 'rest', method: 'POST', path: '/v1/deals', body: { name: `Idem ${me.mark}`, contact_id: p.of(me.contacts) }, headers: { 'idempotency-key': key } }, expect: 'any' };
  },
  restOwnReads: (me, _them, p) => {
    const paths = ['/v1/me', '/v1/contacts?limit=3', '/v1/deals?limit=3', '/v1/pipelines', '/v1/schema', '/v1/custom-fields?limit=2', '/v1/tokens?limit=2&include_revoked=true', `/v1/contacts/${p.of(me.contacts)}`, `/v1/deals/${p.of(me.deals)}`, '/v1/contacts?limit=2&status=active', `/v1/deals?limit=2&stage=${encodeURIComponent(p.of(me.stageNames))}`];
    return { call: { via: 'rest', method: 'GET', path: p.of(paths) }, expect: 'any' };
  },
  restOwnWrites: (me, _them, p) => {
    const pipeline = p.of(me.pipelines);
    const writes: Call[] = [
      { via: 'rest', method: 'POST', path: '/v1/contacts', body: { first_name: `More ${me.mark}`, phone: ownPhone(me), owner_id: p.of(me.users), custom_fields: { [p.of(me.contactKeys)]: null } } },
      { via: 'rest', method: 'POST', path: '/v1/deals', body: { name: `More ${me.mark}`, contact_id: p.of(me.contacts), pipeline_id: pipeline, stage_id: p.of(me.stagesOf.get(pipeline) ?? []), owner_id: p.of(me.users) } },
      { via: 'rest', method: 'PATCH', path: `/v1/deals/${p.of(me.deals)}`, body: { pipeline_id: pipeline, contact_id: p.of(me.contacts) } },
      { via: 'rest', method: 'PATCH', path: `/v1/contacts/${p.of(me.contacts)}`, body: { last_name: `Again ${me.mark}`, owner_id: p.of(me.users) } },
    ];
    return { call: p.of(writes), expect: 'any' };
  },
  restMixedCredentials: (me, them, p) => {
    const bearer = p.of([`${me.token} ${them.token}`, `${them.token},${me.token}`, `${them.token.slice(0, -1)}`, `${me.token.slice(0, 20)}${them.token.slice(20)}`]);
    return { call: { via: 'rest', method: 'GET', path: `/v1/contacts/${p.of(me.contacts)}`, bearer }, expect: 'reject' };
  },
  notesAcrossWorkspaces: (me, them, p) => {
    const body = `Note by ${me.mark}`;
    const calls: Call[] = [
      { via: 'rest', method: 'GET', path: `/v1/notes/${p.of(them.notes)}` },
      { via: 'rest', method: 'PATCH', path: `/v1/notes/${p.of(them.notes)}`, body: { body: `Taken by ${me.mark}` } },
      { via: 'rest', method: 'DELETE', path: `/v1/notes/${p.of(them.notes)}` },
      { via: 'rest', method: 'POST', path: '/v1/notes', body: { contact_id: p.of(them.contacts), body }, headers: p.chance(30) ? { 'idempotency-key': p.of(SHARED_KEYS) } : undefined },
      { via: 'rest', method: 'POST', path: '/v1/notes', body: { deal_id: p.of(them.deals), body } },
      { via: 'rest', method: 'GET', path: p.of([`/v1/notes?contact_id=${p.of(them.contacts)}`, `/v1/notes?deal_id=${p.of(them.deals)}`]) },
      { via: 'tool', server: 'crm', name: 'add_note', args: p.of<Json>([{ contact_id: p.of(them.contacts), body }, { deal_id: p.of(them.deals), body, idempotency_key: p.of(SHARED_KEYS) }]) },
      { via: 'tool', server: 'crm', name: 'list_notes', args: p.of<Json>([{ contact_id: p.of(them.contacts) }, { deal_id: p.of(them.deals) }]) },
    ];
    return { call: p.of(calls), expect: 'reject' };
  },
  notesOwn: (me, _them, p) => {
    const calls: Call[] = [
      { via: 'rest', method: 'POST', path: '/v1/notes', body: { contact_id: p.of(me.contacts), body: `More ${me.mark}` }, headers: p.chance(40) ? { 'idempotency-key': p.of(SHARED_KEYS) } : undefined },
      { via: 'rest', method: 'PATCH', path: `/v1/notes/${p.of(me.notes)}`, body: { body: `Again ${me.mark}` } },
      { via: 'rest', method: 'GET', path: p.of(['/v1/notes?limit=3', `/v1/notes?deal_id=${p.of(me.deals)}`, `/v1/notes/${p.of(me.notes)}`]) },
      { via: 'tool', server: 'crm', name: 'add_note', args: { deal_id: p.of(me.deals), body: `Tool ${me.mark}`, idempotency_key: p.of(SHARED_KEYS) } },
      { via: 'tool', server: 'crm', name: 'list_notes', args: { contact_id: p.of(me.contacts), limit: 2 } },
    ];
    return { call: p.of(calls), expect: 'any' };
  },
  toolReadForeign: (_me, them, p) => {
    const calls: Planned[] = [
      { call: { via: 'tool', server: 'crm', name: 'get_contact', args: { id: p.of(them.contacts) } }, expect: 'reject' },
      { call: { via: 'tool', server: 'crm', name: 'get_deal', args: { id: p.of(them.deals) } }, expect: 'reject' },
      { call: { via: 'tool', server: 'studio', name: 'get_pipeline', args: { id: p.of(them.pipelines) } }, expect: 'reject' },
      { call: { via: 'tool', server: 'crm', name: 'find_deals', args: { contact_id: p.of(them.contacts) } }, expect: 'empty' },
      { call: { via: 'tool', server: 'crm', name: 'find_deals', args: { stage: p.of(them.stages) } }, expect: 'empty' },
      { call: { via: 'tool', server: 'crm', name: 'find_deals', args: { stage: p.of(them.stageNames) } }, expect: 'empty' },
      { call: { via: 'tool', server: 'crm', name: 'find_deals', args: { pipeline: p.of(them.pipelines) } }, expect: 'empty' },
      { call: { via: 'tool', server: 'crm', name: 'find_deals', args: { pipeline: p.of(them.pipelineNames) } }, expect: 'empty' },
      { call: { via: 'tool', server: 'crm', name: 'find_contacts', args: { query: p.of([them.mark, p.of(them.phones), p.of(them.emails), p.of(them.firstNames)]) } }, expect: 'empty' },
      { call: { via: 'tool', server: 'crm', name: 'count_contacts', args: { query: p.of([them.mark, p.of(them.phones), p.of(them.emails)]) } }, expect: 'empty' },
    ];
    return p.of(calls);
  },
  toolWriteForeign: (me, them, p) => {
    const calls: Call[] = [
      { via: 'tool', server: 'crm', name: 'update_contact', args: { id: p.of(them.contacts), first_name: `Taken by ${me.mark}` } },
      { via: 'tool', server: 'crm', name: 'update_contact', args: { id: p.of(me.contacts), owner_id: p.of(them.users) } },
      { via: 'tool', server: 'crm', name: 'update_contact', args: { id: p.of(me.contacts), custom_fields: { [p.of(them.contactKeys)]: 'x' } } },
      { via: 'tool', server: 'crm', name: 'create_contact', args: { first_name: `Tool ${me.mark}`, phone: ownPhone(me), owner_id: p.of(them.users) } },
      { via: 'tool', server: 'crm', name: 'create_deal', args: { name: `Tool ${me.mark}`, ...dealRefs(me, them, p) } },
      { via: 'tool', server: 'crm', name: 'update_deal', args: { id: p.of(them.deals), name: `Taken by ${me.mark}` } },
      { via: 'tool', server: 'crm', name: 'update_deal', args: { id: p.of(me.deals), ...dealRefs(me, them, p) } },
    ];
    return { call: p.of(calls), expect: 'reject' };
  },
  toolStudioForeign: (me, them, p) => {
    const calls: Call[] = [
      { via: 'tool', server: 'studio', name: 'update_custom_field', args: { id: p.of(them.fields), label: `Taken by ${me.mark}` } },
      { via: 'tool', server: 'studio', name: 'archive_custom_field', args: { id: p.of(them.fields) } },
      { via: 'tool', server: 'studio', name: 'update_pipeline', args: { id: p.of(them.pipelines), name: `Taken by ${me.mark}`, is_default: true } },
      { via: 'tool', server: 'studio', name: 'create_stage', args: { pipeline_id: p.of(them.pipelines), name: `Sneak ${me.mark}` } },
      { via: 'tool', server: 'studio', name: 'update_stage', args: { pipeline_id: p.of(them.pipelines), stage_id: p.of(them.stages), name: `Taken by ${me.mark}` } },
      { via: 'tool', server: 'studio', name: 'update_stage', args: { pipeline_id: p.of(me.pipelines), stage_id: p.of(them.stages), position: 0 } },
      { via: 'tool', server: 'studio', name: 'archive_stage', args: { pipeline_id: p.of(them.pipelines), stage_id: p.of(them.stages) } },
      { via: 'tool', server: 'studio', name: 'archive_stage', args: { pipeline_id: p.of(me.pipelines), stage_id: p.of(them.stages) } },
    ];
    return { call: p.of(calls), expect: 'reject' };
  },
  toolForeignCursor: (_me, them, p) => {
    const rest = them.restCursors.map((c) => c.cursor);
    const calls: Call[] = [
      ...them.toolCursors.map((c): Call => ({ via: 'tool', server: 'crm', name: c.tool, args: { cursor: c.cursor } })),
      { via: 'tool', server: 'crm', name: 'find_contacts', args: { cursor: p.of(rest) } },
      { via: 'tool', server: 'crm', name: 'find_deals', args: { cursor: p.of(rest) } },
      { via: 'tool', server: 'studio', name: 'list_custom_fields', args: { cursor: p.of(rest) } },
    ];
    return { call: p.of(calls), expect: 'reject' };
  },
  toolOwnReads: (me, _them, p) => {
    const calls: Call[] = [
      { via: 'tool', server: 'crm', name: 'whoami', args: {} },
      { via: 'tool', server: 'studio', name: 'whoami', args: {} },
      { via: 'tool', server: 'crm', name: 'describe_schema', args: {} },
      { via: 'tool', server: 'crm', name: 'find_contacts', args: { limit: 2 } },
      { via: 'tool', server: 'crm', name: 'find_deals', args: { limit: 2, stage: p.of(me.stageNames) } },
      { via: 'tool', server: 'crm', name: 'count_contacts', args: {} },
      { via: 'tool', server: 'studio', name: 'list_pipelines', args: {} },
      { via: 'tool', server: 'studio', name: 'get_pipeline', args: { id: p.of(me.pipelines) } },
      { via: 'tool', server: 'studio', name: 'list_custom_fields', args: { include_archived: true } },
      { via: 'tool', server: 'crm', name: 'get_contact', args: { id: p.of(me.contacts) } },
    ];
    return { call: p.of(calls), expect: 'any' };
  },
};

const actionArb = fc.record({
  actor: fc.constantFrom<'A' | 'B'>('A', 'B'),
  kind: fc.constantFrom(...Object.keys(ACTIONS)),
  picks: fc.array(fc.nat({ max: 10_000 }), { minLength: 8, maxLength: 8 }),
});
type Action = { actor: 'A' | 'B'; kind: string; picks: number[] };

// ---------------------------------------------------------------- running and checking
interface Outcome {
  /** HTTP status, or 200/400 for a tool result (isError), 400 for a refused tool call. */
  status: number;
  /** All the caller got back: body, headers, tool text and structured content. */
  text: string;
  json: unknown;
  refused: boolean;
}

async function perform(me: Side, call: Call): Promise<Outcome> {
  if (call.via === 'rest') {
    const res = await sendJson(stack.baseUrl, call.bearer ?? me.token, call.method, call.path, call.body, call.headers);
    const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
    return { status: res.status, text: `${headers}\n${res.text}`, json: res.json, refused: res.status >= 400 };
  }
  const client = call.server === 'crm' ? me.crm : me.studio;
  try {
    const result = (await client.callTool({ name: call.name, arguments: call.args }, undefined, { timeout: REQUEST_TIMEOUT_MS })) as ToolResult;
    const text = `${toolText(result)}\n${JSON.stringify(result.structuredContent ?? null)}`;
    return { status: result.isError ? 400 : 200, text, json: result.structuredContent ?? null, refused: result.isError === true };
  } catch (error) {
    if (error instanceof McpError && error.code === -32602) return { status: 400, text: error.message, json: null, refused: true };
    throw error;
  }
}

function describeCall(call: Call): string {
  return call.via === 'rest'
    ? `${call.method} ${call.path}${call.body === undefined ? '' : ` ${brief(call.body, 300)}`}${call.headers && Object.keys(call.headers).length ? ` ${brief(call.headers)}` : ''}${call.bearer ? ' (mixed bearer)' : ''}`
    : `${call.server}/${call.name} ${brief(call.args, 300)}`;
}

function requestText(call: Call): string {
  const raw = call.via === 'rest' ? `${call.path} ${JSON.stringify(call.body ?? null)} ${JSON.stringify(call.headers ?? {})} ${call.bearer ?? ''}` : JSON.stringify(call.args);
  try {
    return `${raw} ${decodeURIComponent(raw)}`;
  } catch {
    return raw;
  }
}

function isEmptyAnswer(json: unknown): boolean {
  const o = json as { data?: unknown[]; contacts?: unknown[]; deals?: unknown[]; count?: number } | null;
  if (!o) return false;
  if (Array.isArray(o.data)) return o.data.length === 0;
  if (Array.isArray(o.contacts)) return o.contacts.length === 0;
  if (Array.isArray(o.deals)) return o.deals.length === 0;
  return o.count === 0;
}

/** Keeps what the actor legitimately got: new ids for later actions, cursors of its own lists. */
function harvest(me: Side, them: Side, call: Call, outcome: Outcome): void {
  if (outcome.refused) return;
  for (const id of outcome.text.match(ID) ?? []) {
    if (them.secrets.has(id) || me.secrets.has(id)) continue;
    me.secrets.add(id);
    if (id.startsWith('con_')) me.contacts.push(id);
    else if (id.startsWith('deal_')) me.deals.push(id);
  }
  const next = (outcome.json as { links?: { next?: string | null } } | null)?.links?.next;
  if (call.via === 'rest' && next) {
    const url = new URL(next);
    const cursor = url.searchParams.get('cursor');
    url.searchParams.delete('cursor');
    url.searchParams.delete('limit');
    if (cursor && me.restCursors.length < 40) me.restCursors.push({ path: url.pathname, filters: url.searchParams.toString(), cursor });
  }
  const toolCursor = (outcome.json as { next_cursor?: unknown } | null)?.next_cursor;
  if (call.via === 'tool' && typeof toolCursor === 'string' && (call.name === 'find_contacts' || call.name === 'find_deals') && me.toolCursors.length < 20) {
    me.toolCursors.push({ tool: call.name, cursor: toolCursor });
  }
}

/** Both workspaces' fingerprints as the last call left them; none while a call may have changed them. */
let fingerprints: Map<string, Record<string, string>> | undefined;
const fingerprintBoth = () => workspaceFingerprints(stack.db, [A.ws.workspace.id, B.ws.workspace.id]);
const tally = { actions: 0, refused: 0, byKind: new Map<string, number>() };

async function step(action: Action, log: string[]): Promise<void> {
  const me = action.actor === 'A' ? A : B;
  const them = action.actor === 'A' ? B : A;
  const planned = ACTIONS[action.kind]?.(me, them, new Picks(action.picks));
  if (!planned) throw new Error(`unknown action ${action.kind}`);
  const { call, expect } = planned;
  const what = `${me.key} ${action.kind}: ${describeCall(call)}`;
  log.push(what);

  const theirsBefore = (fingerprints ?? (await fingerprintBoth())).get(them.ws.workspace.id) ?? {};
  fingerprints = undefined;
  let outcome: Outcome;
  try {
    outcome = await perform(me, call);
  } catch (error) {
    throw new Error(`${what}\n→ ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, { cause: error });
  }
  tally.actions++;
  tally.byKind.set(action.kind, (tally.byKind.get(action.kind) ?? 0) + 1);
  if (outcome.refused) tally.refused++;
  const fail = (why: string) => new Error(`${why}\n  call: ${what}\n  answer ${outcome.status}: ${brief(outcome.text, 600)}\n  sequence:\n    ${log.join('\n    ')}`);

  if (outcome.status >= 500) throw fail('5xx');
  if (/^internal:|internal error/im.test(outcome.text)) throw fail('internal error');
  const leak = leakIn(outcome.text);
  if (leak) throw fail(`internals leaked: ${leak}`);
  const sent = requestText(call);
  const leaked = [...them.secrets].filter((s) => outcome.text.includes(s) && !sent.includes(s));
  if (leaked.length > 0) throw fail(`the answer to ${me.key} carries ${them.key}'s ${leaked.slice(0, 5).join(', ')}`);
  if (expect === 'reject' && !outcome.refused) throw fail(`a call aimed at ${them.key}'s data was not refused`);
  if (expect === 'empty' && !outcome.refused && !isEmptyAnswer(outcome.json)) throw fail(`a filter naming ${them.key}'s data found something`);

  const after = await fingerprintBoth();
  const changed = changedTables(theirsBefore, after.get(them.ws.workspace.id) ?? {});
  if (changed.length > 0) throw fail(`${me.key}'s call changed ${them.key}'s ${changed.join(', ')}`);
  fingerprints = after;
  harvest(me, them, call, outcome);
}

/** SQL over the whole database: every reference stays inside its workspace. */
async function crossWorkspaceReferences(): Promise<Record<string, unknown[]>> {
  const checks: [name: string, sql: string, params?: unknown[]][] = [
    // The composite foreign keys already enforce these nine (see the initial migration):
    // checked anyway, so that a migration dropping one of them fails here.
    ['deals.contact_id', `select d.id, d.contact_id from deals d where d.contact_id is not null
      and not exists (select 1 from contacts c where c.id = d.contact_id and c.workspace_id = d.workspace_id)`],
    ['deals.pipeline_id', `select d.id, d.pipeline_id from deals d
      where not exists (select 1 from pipelines p where p.id = d.pipeline_id and p.workspace_id = d.workspace_id)`],
    ['deals.stage_id', `select d.id, d.stage_id from deals d
      where not exists (select 1 from stages s where s.id = d.stage_id and s.workspace_id = d.workspace_id and s.pipeline_id = d.pipeline_id)`],
    ['deals.owner_id', `select d.id, d.owner_id from deals d where d.owner_id is not null
      and not exists (select 1 from memberships m where m.user_id = d.owner_id and m.workspace_id = d.workspace_id)`],
    ['contacts.owner_id', `select c.id, c.owner_id from contacts c where c.owner_id is not null
      and not exists (select 1 from memberships m where m.user_id = c.owner_id and m.workspace_id = c.workspace_id)`],
    ['stages.pipeline_id', `select s.id from stages s
      where not exists (select 1 from pipelines p where p.id = s.pipeline_id and p.workspace_id = s.workspace_id)`],
    ['notes.contact_id', `select n.id, n.contact_id from notes n where n.contact_id is not null
      and not exists (select 1 from contacts c where c.id = n.contact_id and c.workspace_id = n.workspace_id)`],
    ['notes.deal_id', `select n.id, n.deal_id from notes n where n.deal_id is not null
      and not exists (select 1 from deals d where d.id = n.deal_id and d.workspace_id = n.workspace_id)`],
    ['memberships.workspace', `select m.id from memberships m where not exists (select 1 from workspaces w where w.id = m.workspace_id)`],
    // No constraint can check these.
    ['contacts.custom_fields', `select c.id, k from contacts c, jsonb_object_keys(c.custom_fields) k
      where not exists (select 1 from custom_fields f where f.workspace_id = c.workspace_id and f.object_type = 'contact' and f.key = k)`],
    ['deals.custom_fields', `select d.id, k from deals d, jsonb_object_keys(d.custom_fields) k
      where not exists (select 1 from custom_fields f where f.workspace_id = d.workspace_id and f.object_type = 'deal' and f.key = k)`],
    // This test's workspaces only: another test file on the shared stack removes a member whose token stays (console-token-creators).
    ['api_tokens.created_by', `select t.id, t.created_by from api_tokens t where t.created_by is not null and t.workspace_id = any($1) and not (
        exists (select 1 from memberships m where m.user_id = t.created_by and m.workspace_id = t.workspace_id)
        or exists (select 1 from api_tokens o where o.id = t.created_by and o.workspace_id = t.workspace_id))`, [[A.ws.workspace.id, B.ws.workspace.id]]],
    ['idempotency_keys.response', `select k.workspace_id, k.key, k.response->>'id' as id from idempotency_keys k
      where k.response->>'id' is not null and not exists (
        select 1 from contacts c where c.id = k.response->>'id' and c.workspace_id = k.workspace_id
        union all select 1 from deals d where d.id = k.response->>'id' and d.workspace_id = k.workspace_id
        union all select 1 from notes n where n.id = k.response->>'id' and n.workspace_id = k.workspace_id
        union all select 1 from pipelines p where p.id = k.response->>'id' and p.workspace_id = k.workspace_id
        union all select 1 from custom_fields f where f.id = k.response->>'id' and f.workspace_id = k.workspace_id)`],
  ];
  // No row of one workspace carries the other's marker (a copied name, a stored foreign id or reply).
  for (const [mine, theirs] of [[A, B], [B, A]] as const) {
    for (const table of ['contacts', 'deals', 'notes', 'pipelines', 'stages', 'custom_fields', 'api_tokens', 'idempotency_keys']) {
      checks.push([
        `${table} of ${mine.key} mentioning ${theirs.key}`,
        `select * from ${table} t where t.workspace_id = $1 and (position($2 in t::text) > 0 or position($3 in t::text) > 0)`,
        [mine.ws.workspace.id, theirs.mark, theirs.mark.toLowerCase()],
      ]);
    }
  }
  // Read-only and independent: all at once (as many at a time as the pool has connections).
  const found = await Promise.all(checks.map(async ([name, sql, params]) => [name, await stack.db.query(sql, params ?? [])] as const));
  return Object.fromEntries(found.filter(([, rows]) => rows.length > 0));
}

t.test('the seed itself: each workspace sees only its own records, shared idempotency keys included', async (t) => {
  for (const [me, them] of [[A, B], [B, A]] as const) {
    const all = await seedOk<{ data: { id: string }[] }>(me, 'GET', '/v1/contacts?limit=100');
    t.ok(all.data.every((c) => me.contacts.includes(c.id)), `${me.key} lists only its contacts`);
    t.notOk(all.data.some((c) => them.contacts.includes(c.id)), `${me.key} lists none of ${them.key}'s`);
  }
  t.same(await crossWorkspaceReferences(), {}, 'no cross-workspace reference after seeding');
});

t.test('random sequences of REST and tool calls across two workspaces', async (t) => {
  await checkProperty(t, 'sequences', fc.array(actionArb, { minLength: 3, maxLength: MAX_ACTIONS }), async (actions) => {
    const log: string[] = [];
    for (const action of actions) await step(action, log);
    const found = await crossWorkspaceReferences();
    if (Object.keys(found).length > 0) throw new Error(`cross-workspace references: ${brief(found, 1500)}\n  sequence:\n    ${log.join('\n    ')}`);
  }, { numRuns: NUM_RUNS, budget });
  const kinds = [...tally.byKind.entries()].map(([k, n]) => `${k}×${n}`).join(' ');
  t.comment(`${tally.actions} calls (${tally.refused} refused): ${kinds}`);
  t.ok(tally.byKind.size === Object.keys(ACTIONS).length || tally.actions < 200, 'every kind of action ran');
});

t.test('after everything: no cross-workspace reference; each token still works, on its own workspace only', async (t) => {
  t.same(await crossWorkspaceReferences(), {}, 'SQL finds no reference across workspaces');
  for (const side of [A, B]) {
    const me = await seedOk<{ workspace: { id: string } }>(side, 'GET', '/v1/me');
    t.equal(me.workspace.id, side.ws.workspace.id, `${side.key}'s token still answers for ${side.key}`);
  }
  const revoked = await stack.db.query<{ n: string }>('select count(*) n from api_tokens where revoked_at is not null and workspace_id = any($1)', [[A.ws.workspace.id, B.ws.workspace.id]]);
  t.equal(Number(revoked[0]?.n), 0, 'no token was revoked by the other workspace');
  const errors = (await stack.allOutput()).split('\n').filter((line) => /"level":(?:"error"|"fatal"|50|60)/.test(line));
  t.same(errors.slice(0, 5), [], 'no error-level log line');
});
