import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import type { Test } from 'tap';
import type { DatabaseAccess } from '../helpers/database.js';

/**
 * Shared pieces of the property-based resilience suite: bounded HTTP, a cheap database
 * fingerprint, checks for leaked internals, the MCP client, and properties run within a time
 * budget, replayed (FC_SEED, FC_PATH) or scaled (FC_RUNS_FACTOR) from the environment.
 */

/** A request that takes longer than this is a hang, and a failure. */
export const REQUEST_TIMEOUT_MS = 5_000;

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent (percent-encoding is the caller's). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export class HangError extends Error {
  override name = 'HangError';
}

/** One HTTP request with a deadline; no contract checks, no retries. */
export async function send(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const started = Date.now();
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${baseUrl}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new HangError(`${req.method} ${req.path.slice(0, 200)}: no answer within ${REQUEST_TIMEOUT_MS} ms (${Date.now() - started} ms)`);
    }
    throw error;
  }
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON.
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A JSON request with a bearer token: the body serialised, with its content type when there is one. */
export function sendJson(baseUrl: string, bearer: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return send(baseUrl, {
    method,
    path,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The JSON of a 2xx answer to a setup request; anything else throws. */
export function seededJson<T>(res: RawResponse, what: string): T {
  if (res.status >= 300) throw new Error(`seed ${what}: ${res.status} ${res.text}`);
  return res.json as T;
}

/** What a response must never show: stack frames, source paths, driver or runtime error names. */
const LEAK_PATTERNS: RegExp[] = [
  /\n\s+at \S.*[(:]\d+/, // a stack frame
  /\bat (?:async )?[\w$.<>]+ \((?:file:|node:|\/)/,
  /node:internal/,
  /node_modules/,
  /\/(?:work|home|usr|app|opt|srv)\/[\w./-]+\.(?:[cm]?js|ts)\b/,
  /\b(?:DriverException|DatabaseError|QueryFailedError|ZodError|TypeError|ReferenceError|RangeError)\b/,
  /\b(?:violates (?:foreign key|unique|check|not-null) constraint|invalid byte sequence|syntax error at or near|out of range for type)\b/,
  /\bMikroORM\b/,
];

/** Null when clean, else what leaked. */
export function leakIn(text: string): string | null {
  for (const pattern of LEAK_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return `${pattern}: …${text.slice(Math.max(0, match.index - 80), match.index + 120)}…`;
  }
  return null;
}

/** Per table: the row text it is fingerprinted by, and the order of its rows. */
const FINGERPRINTED: [table: string, row: string, order: string][] = [
  ['contacts', 't::text', 't.id'],
  ['deals', 't::text', 't.id'],
  ['notes', 't::text', 't.id'],
  ['pipelines', 't::text', 't.id'],
  ['stages', 't::text', 't.id'],
  ['custom_fields', 't::text', 't.id'],
  ['memberships', 't::text', 't.id'],
  ['idempotency_keys', 't::text', 't.workspace_id, t.key'],
  // `last_used_at` is left out: authenticating legitimately touches it (at most once a minute).
  ['api_tokens', "concat_ws(',', t.id, t.workspace_id, t.name, t.token_hash, t.scopes::text, t.created_by, t.expires_at::text, t.revoked_at::text)", 't.id'],
  ['workspaces', 't::text', 't.id'],
];

/** The select list of a fingerprint: one md5 per table over the rows `where` picks (it sees `t` and `w`). */
function fingerprintColumns(where: (table: string) => string): string {
  return FINGERPRINTED.map(
    ([table, row, order]) => `(select md5(coalesce(string_agg(${row}, '|' order by ${order}), '')) from ${table} t where ${where(table)}) as ${table}`,
  ).join(',\n');
}

/** A cheap fingerprint of the whole database: one md5 per table over its rows in id order. */
export async function fingerprint(db: DatabaseAccess): Promise<Record<string, string>> {
  const [row] = await db.query<Record<string, string>>(`select ${fingerprintColumns(() => 'true')}`);
  if (!row) throw new Error('no fingerprint');
  return row;
}

/** The fingerprint of everything each workspace owns, by workspace id, in one query. */
export async function workspaceFingerprints(db: DatabaseAccess, workspaceIds: string[]): Promise<Map<string, Record<string, string>>> {
  const rows = await db.query<Record<string, string>>(
    `select w.id as workspace_id, ${fingerprintColumns((table) => (table === 'workspaces' ? 't.id = w.id' : 't.workspace_id = w.id'))}
     from workspaces w where w.id = any($1)`,
    [workspaceIds],
  );
  const found = new Map(rows.map(({ workspace_id: id, ...tables }) => [id ?? '', tables]));
  for (const id of workspaceIds) if (!found.has(id)) throw new Error(`no fingerprint for workspace ${id}`);
  return found;
}

/** The tables whose fingerprints differ. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((k) => before[k] !== after[k]);
}

export type McpServerName = 'crm' | 'studio';

export async function connectMcp(baseUrl: string, server: McpServerName, bearer: string): Promise<Client> {
  const client = new Client({ name: 'resilience-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${server}`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }),
  );
  return client;
}

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
}

export function toolText(result: ToolResult): string {
  return (result.content ?? []).map((c) => c.text ?? '').join('\n');
}

/** fast-check parameters: `numRuns` scaled by FC_RUNS_FACTOR, and FC_SEED/FC_PATH to replay a failure fc.assert reported. */
function fcParams<T>(numRuns: number): fc.Parameters<T> {
  const factor = Number(process.env.FC_RUNS_FACTOR ?? '1');
  const params: fc.Parameters<T> = {
    numRuns: Math.max(1, Math.round(numRuns * (Number.isFinite(factor) && factor > 0 ? factor : 1))),
    // The failing request and the seed to replay it, in the message tap prints.
    includeErrorInReport: true,
  };
  if (process.env.FC_SEED) params.seed = Number(process.env.FC_SEED);
  if (process.env.FC_PATH) params.path = process.env.FC_PATH;
  return params;
}

/**
 * The time the properties of one test file may take, so that the file ends well within tap's
 * timeout on a slow machine: each property gets what is left of the file's budget split over
 * the properties still to run (so time a fast one leaves goes to the later ones), capped.
 * Counted from the start of the process, so starting and seeding the stack count too.
 */
export class PropertyBudget {
  private readonly endsAt: number;
  private readonly maxPerPropertyMs: number;
  private propertiesLeft: number;

  constructor(options: { totalMs: number; properties: number; maxPerPropertyMs: number }) {
    this.endsAt = performance.timeOrigin + options.totalMs;
    this.maxPerPropertyMs = options.maxPerPropertyMs;
    this.propertiesLeft = options.properties;
  }

  /** The deadline of the next property to run. */
  nextDeadline(): number {
    const now = Date.now();
    const share = Math.max(0, this.endsAt - now) / Math.max(1, this.propertiesLeft);
    this.propertiesLeft = Math.max(0, this.propertiesLeft - 1);
    return now + Math.min(share, this.maxPerPropertyMs);
  }
}

/** Cases every property runs, even past its deadline. */
const MIN_CASES = 5;

/**
 * fc.assert of `predicate` over `arbitrary`, up to `numRuns` cases or the property's share of
 * `budget` (at least {@link MIN_CASES}). Past the deadline the predicate returns at once: the case in flight is always
 * awaited to its end (a timer that abandoned it would let it run on against the database
 * while the next property starts, and would drop its failure). Says how many cases ran.
 */
export async function checkProperty<T>(
  t: Test,
  what: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: { numRuns: number; budget: PropertyBudget },
): Promise<void> {
  const deadline = options.budget.nextDeadline();
  let ran = 0;
  let cut = false;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      // A few cases run whatever is left of the budget: on a machine that took most of it to
      // start the stack, a property that ran none would check nothing.
      if (ran >= MIN_CASES && Date.now() >= deadline) {
        cut = true;
        return;
      }
      ran++;
      await predicate(value);
    }),
    fcParams<[T]>(options.numRuns),
  );
  t.comment(`${what}: ${ran} cases${cut ? ' (stopped early at the time limit)' : ''}`);
  t.ok(ran > 0, `${what}: at least one case ran`);
}

/** Renders a value for a failure message without flooding it. */
export function brief(value: unknown, max = 400): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  if (text === undefined) return 'undefined';
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
