import { parseScopeList, SCOPES } from '../../shared/auth/scopes.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { MAX_PAGE_SIZE } from '../../shared/contracts/common.js';
import { createToken, listTokens, revokeToken, tokenExpired, type ApiToken } from '../../shared/contracts/tokens.js';
import { optional, parseCommandArgs, parseDuration, required, withoutPositionals } from '../args.js';
import type { LocalServices } from '../local-services.js';
import { printJson, printLines } from '../output.js';
import { UsageError } from '../usage-error.js';
import { withLocalServices } from '../with-local-services.js';
import { withOptionNames } from '../option-refusal.js';

export const usage = `Usage: crm tokens create --workspace WORKSPACE --scopes LIST [--name NAME] [--expires-in 90d] [--json]
       crm tokens list   --workspace WORKSPACE [--all] [--json]
       crm tokens revoke --workspace WORKSPACE TOKEN_ID [--children] [--json]

WORKSPACE is a workspace id (ws_…) or name. LIST is comma-separated scopes:
${SCOPES.join(' ')}.
The token is printed once; only its hash is stored. --children also revokes every
token the revoked one created, and theirs.`;

export async function run(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'create') return create(rest);
  if (sub === 'list') return list(rest);
  if (sub === 'revoke') return revoke(rest);
  throw new UsageError(sub ? `Unknown tokens command: ${sub}.` : 'Missing the tokens command.', usage);
}

async function create(argv: string[]): Promise<void> {
  const args = withoutPositionals(
    parseCommandArgs(argv, { workspace: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, 'expires-in': { type: 'string' }, json: { type: 'boolean' } }, usage),
    usage,
  );
  const { scopes, unknown } = parseScopeList(required(args, 'scopes', usage));
  if (unknown.length > 0) throw new UsageError(`Unknown scope: ${unknown.join(', ')}.`, usage);
  if (scopes.length === 0) throw new UsageError('Give at least one scope.', usage);
  const expiresIn = optional(args, 'expires-in');
  const lifetimeMs = expiresIn ? parseDuration(expiresIn, usage) : null;
  const name = optional(args, 'name') ?? 'crm command line';
  const workspaceRef = required(args, 'workspace', usage);
  const token = await withOptionNames({ name: '--name', scopes: '--scopes', expires_at: '--expires-in' }, usage, () =>
    withLocalServices(async ({ bus, requestId, inWorkspace }) => {
      const { context } = await inWorkspace(workspaceRef);
      // Counted from now, not from when the command started: connecting takes seconds, which the token would lose.
      const expires_at = lifetimeMs === null ? null : new Date(Date.now() + lifetimeMs).toISOString();
      return (await bus.call(createToken, { name, scopes, expires_at }, { context, requestId })).result;
    }),
  );
  if (args.values.json) return printJson(token);
  printLines(
    `Created ${token.id} "${token.name}" in ${token.workspace_id} with scopes: ${token.scopes.join(', ')}${token.expires_at ? `; expires ${token.expires_at}` : ''}`,
    '',
    token.token,
    '',
    'Store it now: it is shown once and cannot be recovered, only replaced.',
  );
}

async function allTokens({ bus, requestId }: LocalServices, context: CallContext, includeRevoked: boolean) {
  const tokens: ApiToken[] = [];
  let cursor: string | undefined;
  do {
    const { result } = await bus.call(listTokens, { limit: MAX_PAGE_SIZE, cursor, include_revoked: includeRevoked }, { context, requestId });
    tokens.push(...result.data);
    cursor = result.next_cursor ?? undefined;
  } while (cursor);
  return tokens;
}

async function list(argv: string[]): Promise<void> {
  const args = withoutPositionals(parseCommandArgs(argv, { workspace: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' } }, usage), usage);
  const workspaceRef = required(args, 'workspace', usage);
  const tokens = await withLocalServices(async (services) => {
    const { context } = await services.inWorkspace(workspaceRef);
    return allTokens(services, context, args.values.all === true);
  });
  if (args.values.json) return printJson({ object: 'list', data: tokens });
  if (tokens.length === 0) return printLines('No tokens.');
  printLines(
    ...tokens.map(
      (t) =>
        `${t.id}  ${t.display_hint}  ${t.name}  [${t.scopes.join(' ')}]  created ${t.created_at}  last used ${t.last_used_at ?? 'never'}` +
        (t.expires_at ? `  ${tokenExpired(t) ? 'EXPIRED' : 'expires'} ${t.expires_at}` : '') +
        (t.revoked_at ? `  REVOKED ${t.revoked_at}` : ''),
    ),
  );
}

async function revoke(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, { workspace: { type: 'string' }, children: { type: 'boolean' }, json: { type: 'boolean' } }, usage);
  const id = args.positionals[0];
  if (!id || args.positionals.length > 1) throw new UsageError('Give exactly one token id to revoke.', usage);
  const workspaceRef = required(args, 'workspace', usage);
  const token = await withLocalServices(async ({ bus, requestId, inWorkspace }) => {
    const { context } = await inWorkspace(workspaceRef);
    return (await bus.call(revokeToken, { id, ...(args.values.children ? { revoke_children: true } : {}) }, { context, requestId })).result;
  });
  if (args.values.json) return printJson(token);
  const children = args.values.children ? ', with every token it created and theirs' : '';
  printLines(`Revoked ${token.id} "${token.name}"${children} at ${token.revoked_at}. Gateways refuse it within seconds.`);
}
