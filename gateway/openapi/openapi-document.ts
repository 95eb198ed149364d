import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from '../../shared/auth/scopes.js';
import { scopesOf } from '../../shared/bus/operation.js';
import { IdempotencyKey } from '../../shared/contracts/common.js';
import { ETAG_HEADER, IF_MATCH_HEADER } from '../../shared/contracts/entity-tags.js';
import type { ErrorCode } from '../../shared/errors.js';
import type { Endpoint } from '../api/endpoint.js';
import { ErrorBody } from '../api/error-body.js';
import { HTTP_STATUS } from '../errors/http-status.js';
import { webhooksSection } from './webhooks-section.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid; `param` names the parameter or field at fault. Nothing was changed.',
  401: 'No valid API token (see the WWW-Authenticate header).',
  403: 'The token lacks a scope (`required_scope` names exactly the missing one) or the action is not allowed.',
  404: 'No such object in this workspace (objects of other workspaces are not found either).',
  409: 'Conflicts with the current state, e.g. a phone already used in the workspace.',
  413: 'The request body is too large.',
  406: 'The Accept header allows no application/json, the only type the API answers with.',
  415: 'The request body must be UTF-8 JSON (Content-Type: application/json), in no Content-Encoding but gzip, deflate or br.',
  429: 'The token used up its requests for this minute; retry after the Retry-After header.',
  500: 'An internal error; details are logged under the request id.',
  503: 'No worker answered in time; retry after the Retry-After header.',
};

const RequestIdHeader = z.string().meta({ description: 'Identifies the request in the logs; quote it in support requests.' });
/** On every answer of the API, errors included (gateway/middlewares/no-store.ts). */
const CacheControlHeader = z.literal('no-store').meta({ description: 'Workspace data: never cached' });

/** Sent whenever the token's rate limit applies (RATE_LIMIT_TOKEN_PER_MINUTE > 0). */
const RATE_LIMIT_HEADERS: Record<string, z.ZodType> = {
  'RateLimit-Limit': z.string().optional().meta({ description: 'Requests allowed per minute for this token' }),
  'RateLimit-Remaining': z.string().optional().meta({ description: 'Requests left in the current minute, across every gateway' }),
  'RateLimit-Reset': z.string().optional().meta({ description: 'Seconds until the current minute ends and the count starts again' }),
  'RateLimit-Policy': z.string().optional().meta({ description: 'The limit and its window, e.g. 6000;w=60' }),
};

/** Error codes an endpoint can answer with: its own, plus those implied by its shape. */
function errorCodesOf(e: Endpoint): ErrorCode[] {
  // Every endpoint refuses unknown query parameters (and a misplaced Idempotency-Key) with a 400.
  const codes = new Set<ErrorCode>(['validation_failed', 'unauthenticated', 'rate_limited', 'internal', 'unavailable', ...(e.errors ?? [])]);
  if (e.scope) codes.add('missing_scope');
  // The body parser reads a JSON body on every route, declared or not (a field sent where none
  // is taken is a 400): any request may be malformed, too large, or not JSON.
  codes.add('invalid_json').add('payload_too_large').add('unsupported_media_type');
  // Every answer is JSON: an Accept header that allows none is refused, whatever the endpoint.
  codes.add('not_acceptable');
  // Any request may carry an If-Match that does not hold (gateway/api/conditional-headers.ts; a stale version: the worker).
  codes.add('precondition_failed');
  if (e.params) codes.add('not_found');
  // A key sent again with another request, whatever the endpoint.
  if (e.idempotent) codes.add('idempotency_key_reused');
  return [...codes];
}

function responsesOf(e: Endpoint): ZodOpenApiResponsesObject {
  const headers: Record<string, z.ZodType> = { 'Request-Id': RequestIdHeader, 'Cache-Control': CacheControlHeader, ...RATE_LIMIT_HEADERS };
  // The object in the body, which is not always the one created: a new stage answers with its pipeline.
  if (e.location) headers.Location = z.string().meta({ description: 'Absolute URL of the object in the body, to read it again' });
  if (e.versioned === 'tagged') headers[ETAG_HEADER] = z.string().meta({ description: `The record's version, e.g. "2026-01-31T09:30:00.000Z" (it changes on every write): send it back in ${IF_MATCH_HEADER} to change the record only if no one else has since` });
  if (e.idempotent) headers['Idempotent-Replayed'] = z.literal('true').optional().meta({ description: 'Present when the response was replayed for an Idempotency-Key' });
  const responses: ZodOpenApiResponsesObject = {
    [String(e.status)]: {
      description: e.status === 201 ? 'Created' : 'OK',
      headers: z.object(headers),
      content: { 'application/json': { schema: e.response } },
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(e)) {
    const status = HTTP_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const extra: Record<string, z.ZodType> = { 'Request-Id': RequestIdHeader, 'Cache-Control': CacheControlHeader };
    if (status === 401) extra['WWW-Authenticate'] = z.string().meta({ description: 'Bearer challenge' });
    if (status === 503 || status === 429) extra['Retry-After'] = z.string().meta({ description: 'Seconds to wait before retrying' });
    if (status === 429) Object.assign(extra, RATE_LIMIT_HEADERS);
    responses[`${status}` as `4${string}`] = {
      description: `${ERROR_DESCRIPTIONS[status] ?? 'Error'} Codes: ${codes.join(', ')}.`,
      headers: z.object(extra),
      content: { 'application/json': { schema: ErrorBody } },
    };
  }
  return responses;
}

/** The error envelope's fields as the description shows them, read from the schema (optional ones marked ?), so the two never differ. */
function errorShape(): string {
  const fields = ErrorBody.shape.error.shape;
  const names = Object.entries(fields).map(([name, schema]) => `"${name}${schema.safeParse(undefined).success ? '?' : ''}"`);
  return `{"error":{${names.join(',')}}}`;
}

function scopeNoteOf(scopes: readonly Scope[]): string {
  if (scopes.length === 0) return 'Any valid API token.';
  const names = scopes.map((s) => `\`${s}\``);
  return scopes.length === 1 ? `Requires the scope ${names[0]}.` : `Requires one of the scopes ${names.join(', ')}.`;
}

function operationOf(e: Endpoint): ZodOpenApiOperationObject {
  const scopes = scopesOf({ scope: e.scope });
  const headerParams: Record<string, z.ZodType> = {};
  if (e.idempotent) {
    headerParams['Idempotency-Key'] = IdempotencyKey.optional().meta({ description: 'Makes retries safe for 24 hours: the first response is replayed; a different request with the same key is a 409.' });
  }
  if (e.versioned !== undefined) {
    headerParams[IF_MATCH_HEADER] = z
      .string()
      .optional()
      .meta({ description: `* or ETags (in double quotes, comma-separated), as GET and PATCH of the record give them: carried out only if the record is at one of these versions, else 412 precondition_failed and nothing changes. A malformed value is a 400.` });
  }
  const header = Object.keys(headerParams).length > 0 ? z.object(headerParams) : undefined;
  return {
    operationId: e.operationId,
    summary: e.summary,
    description: [e.description, scopeNoteOf(scopes)].filter(Boolean).join('\n\n'),
    tags: [e.tag],
    // OpenAPI 3.1 allows role names on non-OAuth schemes: the scope this operation needs (alternatives: any one of them).
    security: scopes.length === 0 ? [{ apiToken: [] }] : scopes.map((s) => ({ apiToken: [s] })),
    requestParams: Object.fromEntries(
      Object.entries({ path: e.params, query: e.query, header }).filter(([, schema]) => schema !== undefined),
    ) as ZodOpenApiOperationObject['requestParams'],
    requestBody: e.body ? { required: e.bodyOptional !== true, content: { 'application/json': { schema: e.body } } } : undefined,
    responses: responsesOf(e),
  };
}

/** The OpenAPI 3.1 document of the REST API, generated from the endpoint declarations. */
export function buildOpenApiDocument(endpoints: readonly Endpoint[], serverUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const e of endpoints) paths[e.path] = { ...paths[e.path], [e.method]: operationOf(e) };
  const scopeTable = SCOPES.map((s) => `| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`).join('\n');
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Workspace CRM API',
      version: '1',
      description: [
        'Contacts, deals, pipelines and custom fields of one workspace. The workspace is implied by the API token; there is no tenant header.',
        'Lists use keyset pagination: follow `links.next` (absolute, carrying the filters) until it is null. `limit` defaults to 25, at most 100.',
        `Every error has the shape \`${errorShape()}\` (the Error schema) and every response carries \`Request-Id\` and \`Cache-Control: no-store\`.`,
        'Webhooks: what the service POSTs to a webhook endpoint is under `webhooks` (the WebhookEvent schema and the Standard Webhooks headers), to generate a receiver from.',
        '| Scope | Allows |\n|---|---|\n' + scopeTable + '\n\nA `:write` scope implies its `:read`.',
      ].join('\n\n'),
    },
    servers: [{ url: serverUrl }],
    security: [{ apiToken: [] }],
    tags: [
      { name: 'Workspace', description: 'Its settings: the default country for phones and the time zone that days in filters are read in.' },
      { name: 'Contacts', description: 'People, with E.164 phones unique per workspace.' },
      { name: 'Deals', description: 'Deals in pipeline stages.' },
      { name: 'Notes', description: 'Markdown notes on a contact or a deal, with their author; they take the scopes and the visibility of their record.' },
      { name: 'Pipelines', description: 'Pipelines and their ordered stages.' },
      { name: 'Custom fields', description: 'Typed fields on contacts and deals.' },
      { name: 'Tokens', description: 'API tokens of the workspace.' },
      { name: 'Events', description: 'The change history: who changed what, through which token or agent.' },
      { name: 'Webhooks', description: 'Endpoints that receive events, signed per the Standard Webhooks specification, with every delivery attempt.' },
    ],
    components: {
      securitySchemes: {
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sk_live_…',
          description: 'An API token created by a workspace administrator (crm tokens create, or POST /v1/tokens). Its scopes decide what it may do.',
        },
      },
    },
    paths,
    webhooks: webhooksSection(),
  });
}
