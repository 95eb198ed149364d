import t from 'tap';
import { grantableScopes, parsePermissionList } from '../../shared/auth/permissions.js';
import { grantsScope, missingScope, parseScopeList, SCOPES } from '../../shared/auth/scopes.js';
import { canUseServer } from '../../shared/auth/mcp-servers.js';
import type { Operation } from '../../shared/bus/operation.js';
import { describeSchema } from '../../shared/contracts/schema.js';

t.test('a write scope implies its read scope, nothing else', async (t) => {
  t.ok(grantsScope(['contacts:write'], 'contacts:read'));
  t.ok(grantsScope(['contacts:read'], 'contacts:read'));
  t.notOk(grantsScope(['contacts:read'], 'contacts:write'), 'read does not imply write');
  t.notOk(grantsScope(['deals:write'], 'contacts:read'), 'no implication across resources');
  t.notOk(grantsScope([], 'schema:read'));
  for (const scope of SCOPES) t.ok(grantsScope([scope], scope), `${scope} grants itself`);
});

t.test('the scope a 403 names', async (t) => {
  t.equal(missingScope(['contacts:read'], ['contacts:read']), null, 'held: nothing missing');
  t.equal(missingScope(['contacts:write'], ['contacts:read']), null, 'implied: nothing missing');
  t.equal(missingScope([], []), null, 'nothing needed');
  t.equal(missingScope(['deals:read'], ['contacts:read', 'contacts:write']), 'contacts:read', 'unrelated: the first allowed');
  t.equal(missingScope(['studio:read'], ['schema:write', 'studio:write']), 'studio:write', 'a related scope is held: name its family');
});

t.test('scope lists: comma or space separated, unknown names reported', async (t) => {
  t.same(parseScopeList('contacts:read, deals:write  schema:read'), { scopes: ['contacts:read', 'deals:write', 'schema:read'], unknown: [] });
  t.same(parseScopeList('contacts:read,contacts:admin'), { scopes: ['contacts:read'], unknown: ['contacts:admin'] });
  t.same(parseScopeList('').scopes, []);
});

t.test('what a member may grant follows their permissions', async (t) => {
  t.same(grantableScopes(['contacts.read']).sort(), ['contacts:read', 'events:read', 'schema:read', 'studio:read']);
  t.same(grantableScopes(['deals.write']).sort(), ['deals:read', 'deals:write', 'events:read', 'schema:read', 'studio:read']);
  t.same(grantableScopes(['configuration']).sort(), ['events:read', 'schema:read', 'schema:write', 'studio:read', 'studio:write', 'tokens:write', 'webhooks:write']);
  t.same(grantableScopes([]), [], 'no permission: nothing to grant');
  t.same(parsePermissionList('contacts.write,deals.read,admin'), { permissions: ['contacts.write', 'deals.read'], unknown: ['admin'] });
});

t.test('the design is reached with one pair of scopes per surface, declared once: every operation on it, and what a reader or an administrator may grant', async (t) => {
  const { DESIGN_READ_SCOPES, DESIGN_WRITE_SCOPES } = await import('../../shared/auth/scopes.js');
  const pipelines = await import('../../shared/contracts/pipelines.js');
  const fields = await import('../../shared/contracts/custom-fields.js');
  const operations = ([...Object.values(pipelines), ...Object.values(fields)] as unknown[]).filter((x): x is Operation => typeof x === 'object' && x !== null && 'verb' in x && 'worker' in x);
  t.ok(operations.length >= 12, 'every pipeline, stage and custom field operation');
  for (const op of operations) t.same(op.scope, op.readOnly ? DESIGN_READ_SCOPES : DESIGN_WRITE_SCOPES, op.name);
  t.same(describeSchema.scope, [...DESIGN_READ_SCOPES, 'contacts:read', 'deals:read'], 'the schema is read by any reader of the data');
  for (const scope of DESIGN_READ_SCOPES) t.ok(grantableScopes(['deals.read']).includes(scope), `a reader may grant ${scope}`);
  for (const scope of [...DESIGN_READ_SCOPES, ...DESIGN_WRITE_SCOPES]) t.ok(grantableScopes(['configuration']).includes(scope), `an administrator may grant ${scope}`);
  // The CRM server reads the design too: schema:write reaches it through schema:read, with no case of its own.
  t.ok(canUseServer('crm', ['schema:write']));
  t.notOk(canUseServer('studio', ['schema:write']), 'Studio takes only its own scopes');
});
