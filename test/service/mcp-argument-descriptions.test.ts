import t from 'tap';
import { SCOPES } from '../../shared/auth/scopes.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * Every argument a model fills in, at any depth, says what it takes: a name alone
 * ("name", "email") leaves a small model guessing the format or the meaning.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Described Inc', workspace: 'Described', email: 'boss@described.test' });
const W = ws.workspace.id;

type JsonSchema = { description?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema; anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };

/** The paths of the properties under `schema` with no description of their own. */
function undescribed(schema: JsonSchema, path: string): string[] {
  const out: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const at = path ? `${path}.${name}` : name;
    const variants = [property, ...(property.anyOf ?? []), ...(property.oneOf ?? [])];
    if (!variants.some((v) => typeof v.description === 'string' && v.description.trim().length > 0)) out.push(at);
    for (const v of variants) {
      out.push(...undescribed(v, at));
      if (v.items) out.push(...undescribed(v.items, `${at}[]`));
    }
  }
  return out;
}

for (const server of ['crm', 'studio'] as const) {
  t.test(`every ${server} tool argument has a description`, async (t) => {
    const client = await connectMcp(t, stack.baseUrl, server, await stack.token(W, [...SCOPES]));
    const { tools } = await client.listTools();
    t.ok(tools.length > 0, 'the server lists tools');
    const missing = tools.flatMap((tool) => [...new Set(undescribed(tool.inputSchema as JsonSchema, ''))].map((p) => `${tool.name}: ${p}`));
    t.same(missing, [], 'no argument without a description');
  });
}
