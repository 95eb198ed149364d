import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** Keywords that belong to one type only: where a node allows several, each goes with its type. */
const KEYWORDS_OF_TYPE: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  object: ['properties', 'required', 'additionalProperties', 'propertyNames', 'minProperties', 'maxProperties', 'patternProperties'],
};

/** A JSON-safe integer range says nothing a client needs; zod writes it on every integer. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `type: ["string", "null"]` as `anyOf` of single types: the form that every JSON Schema
 * dialect and every client's validator reads the same way.
 */
function splitTypeList(node: JsonSchema): JsonSchema {
  const types = node.type;
  if (!Array.isArray(types)) return node;
  const shared: JsonSchema = {};
  const branches = new Map<string, JsonSchema>(types.map((t: string) => [t, { type: t }]));
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    const owners = types.filter((t: string) => KEYWORDS_OF_TYPE[t]?.includes(key));
    if (owners.length === 0) shared[key] = value;
    for (const owner of owners) branches.get(owner)![key] = value;
  }
  // An enum that allows null belongs to each branch's values; keep it whole on the node.
  return { ...shared, anyOf: [...branches.values()] };
}

/**
 * Rewrites a generated schema into portable JSON Schema 2020-12: references inlined (our
 * schemas have no cycles), type lists split into `anyOf`, the safe-integer noise dropped,
 * and, for inputs, every object closed (`additionalProperties: false`) unless it is a map.
 */
function portable(node: unknown, defs: Record<string, unknown>, closeObjects: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => portable(n, defs, closeObjects));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) {
    const { $ref, ...rest } = node;
    const target = defs[$ref.slice('#/$defs/'.length)];
    return portable({ ...(isObject(target) ? target : {}), ...rest }, defs, closeObjects);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$defs' || key === '$schema' || key === 'id') continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, portable(v, defs, closeObjects)]));
    } else {
      out[key] = portable(value, defs, closeObjects);
    }
  }
  if (closeObjects && out.type === 'object' && isObject(out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return splitTypeList(out);
}

export type JsonObjectSchema = { type: 'object'; [key: string]: unknown };

/** The dialect, said outright: a client need not rely on the protocol's default. */
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A tool's input or output schema as clients see it in tools/list. */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObjectSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  const defs = isObject(generated.$defs) ? generated.$defs : {};
  const result = portable(generated, defs, io === 'input') as JsonSchema;
  return { $schema: DIALECT, ...result, type: 'object' };
}
