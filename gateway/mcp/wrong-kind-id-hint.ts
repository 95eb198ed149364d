import type { z } from 'zod';
import { ID_PREFIXES, type IdKind } from '../../shared/ids.js';
import type { McpServerKey } from '../../shared/contracts/oauth.js';
import type { CrmError } from '../../shared/errors.js';
import type { ToolDefinition } from './tool.js';
import { descriptionOf } from './tool-arguments.js';
import { idsListedBy } from './tool-error-result.js';

/** The kinds of record an agent mixes up, by their ids' prefixes. */
const KINDS = ['contact', 'deal'] as const;
type Kind = (typeof KINDS)[number];

const kindOfId = (value: unknown): Kind | undefined => (typeof value === 'string' ? KINDS.find((k) => value.startsWith(`${ID_PREFIXES[k]}_`)) : undefined);

/** The kind of record an argument names: contact_id, deal_id, or a contact or deal tool's id. */
function kindOfArgument(tool: ToolDefinition, param: string): Kind | undefined {
  if (param === 'id') return KINDS.find((k) => tool.name.endsWith(`_${k}`));
  return KINDS.find((k) => param === `${k}_id`);
}

/**
 * The next step when a not_found id is of another kind than its argument takes (a deal's id
 * as contact_id, a contact's to get_deal): where it goes instead, which "check the id" does
 * not say; for any other kind of id (a stage's as a pipeline's, on Studio), what it is and
 * where the right ids are listed. Undefined when the id is of the argument's kind, or of no kind.
 */
export function wrongKindIdHint(
  error: CrmError,
  tool: ToolDefinition,
  tools: readonly ToolDefinition[],
  args: Record<string, unknown> | undefined,
  server: McpServerKey,
): string | undefined {
  const param = error.details.param;
  if (error.code !== 'not_found' || typeof param !== 'string') return undefined;
  const value = args?.[param];
  const given = kindOfId(value);
  const expected = kindOfArgument(tool, param);
  if (!given || !expected || given === expected) return byDescribedPrefix(tool, param, args, server) ?? nameForIdHint(tool, param, args, server);
  const properties = tool.inputSchema.shape as Record<string, unknown>;
  if (param !== 'id' && Object.hasOwn(properties, `${given}_id`)) return `${String(value)} is a ${given} id: pass it as ${given}_id instead of ${param}.`;
  const sameToolForKind = tool.name.replace(new RegExp(`_${expected}$`), `_${given}`);
  if (param === 'id' && tools.some((t) => t.name === sameToolForKind)) return `${String(value)} is a ${given} id: use ${sameToolForKind} for it.`;
  return `${String(value)} is a ${given} id, not a ${expected}'s: find_${expected}s lists the ids of ${expected}s.`;
}

/** Each id prefix's kind in words: `fld` → "custom field". */
const KIND_BY_PREFIX: ReadonlyMap<string, string> = new Map(
  (Object.entries(ID_PREFIXES) as [IdKind, string][]).map(([kind, prefix]) => [prefix, kind.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)]),
);

/** The id prefix an argument takes, as its description begins (`pipe_…`). */
function prefixTakenBy(tool: ToolDefinition, param: string): string | undefined {
  const field = (tool.inputSchema.shape as Record<string, z.ZodType | undefined>)[param];
  const prefix = field ? /^([a-z]+)_…/.exec(descriptionOf(field) ?? '')?.[1] : undefined;
  return prefix && KIND_BY_PREFIX.has(prefix) ? prefix : undefined;
}

/**
 * Any other kind of id mixed up (a stage's as get_pipeline's id, a contact's as a custom
 * field's): what it is and where ids of the kind the argument takes are listed, since "no
 * such pipeline: stg_…" alone leaves a small model trying the same id elsewhere.
 */
function byDescribedPrefix(tool: ToolDefinition, param: string, args: Record<string, unknown> | undefined, server: McpServerKey): string | undefined {
  const value = args?.[param];
  if (typeof value !== 'string') return undefined;
  const givenPrefix = /^([a-z]+)_/.exec(value.trim())?.[1];
  const expectedPrefix = prefixTakenBy(tool, param);
  if (!givenPrefix || !expectedPrefix || givenPrefix === expectedPrefix || !KIND_BY_PREFIX.has(givenPrefix)) return undefined;
  const given = KIND_BY_PREFIX.get(givenPrefix)!;
  // The argument that takes it, when the call left it out (given, it holds another id: say only what this one is).
  const instead = Object.keys(tool.inputSchema.shape).find((other) => other !== param && args?.[other] === undefined && prefixTakenBy(tool, other) === givenPrefix);
  if (instead) return `${value.trim()} is a ${given} id: pass it as ${instead} instead of ${param}.`;
  return `${value.trim()} is a ${given} id, not a ${KIND_BY_PREFIX.get(expectedPrefix)!} id (${expectedPrefix}_…): ${idsListedBy(server)}.`;
}

/** The kinds of record whose names (or keys) a model puts where their ids go: an owner has its own hint (tool-error-result.ts). */
const NAMED_KINDS = ['contact', 'deal', 'pipeline', 'stage', 'customField'] as const satisfies readonly IdKind[];
type NamedKind = (typeof NAMED_KINDS)[number];

const snakeCase = (kind: IdKind) => kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The kind of record an argument takes: by its described prefix, its name (stage_id), or for `id` the tool's (update_custom_field). */
export function namedKindTakenBy(tool: ToolDefinition, param: string): NamedKind | undefined {
  const prefix = prefixTakenBy(tool, param);
  if (prefix) return NAMED_KINDS.find((k) => ID_PREFIXES[k] === prefix);
  if (param === 'id') return NAMED_KINDS.find((k) => tool.name.endsWith(`_${snakeCase(k)}`));
  return NAMED_KINDS.find((k) => param === `${snakeCase(k)}_id`);
}

/**
 * A name or key where an id goes (stage_id: "Won", get_pipeline's id: "Sales", a custom
 * field's key as its id): "No such stage: Won" and "check the id" left a small model
 * retrying the name. Says it is not an id, and the argument that takes the name when the
 * tool has one (create_deal's stage), else where the ids are listed.
 */
function nameForIdHint(tool: ToolDefinition, param: string, args: Record<string, unknown> | undefined, server: McpServerKey): string | undefined {
  const value = args?.[param];
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const prefix = /^([a-z]+)_/.exec(text)?.[1];
  if (prefix && KIND_BY_PREFIX.has(prefix)) return undefined;
  const kind = namedKindTakenBy(tool, param);
  if (!kind) return undefined;
  const byName = param.replace(/_id$/, '');
  const properties = tool.inputSchema.shape as Record<string, unknown>;
  if (byName !== param && Object.hasOwn(properties, byName) && args?.[byName] === undefined) {
    return `"${text}" is not an id: pass a name as ${byName} instead of ${param}.`;
  }
  return `"${text}" is not a ${KIND_BY_PREFIX.get(ID_PREFIXES[kind])!} id: ${param} takes an id (${ID_PREFIXES[kind]}_…), not a name or key; ${whereIdOf(kind, text, server)}.`;
}

/**
 * The call that gives the id of the record a name meant: "find_contacts, find_deals and
 * describe_schema list the ids" for a pipeline's name sent a small model searching contacts.
 */
function whereIdOf(kind: NamedKind, text: string, server: McpServerKey): string {
  if (server === 'studio') return kind === 'customField' ? 'list_custom_fields lists the custom fields with their ids' : 'list_pipelines lists the pipelines and their stages with their ids';
  switch (kind) {
    case 'contact':
      return `find_contacts {"query": ${JSON.stringify(text)}} gives the id of the contact of that name`;
    case 'deal':
      return `find_deals {"query": ${JSON.stringify(text)}} gives the id of the deal of that name`;
    default:
      return 'describe_schema lists the pipelines, their stages and the custom fields with their ids';
  }
}
