import { ID_PREFIXES } from '../../shared/ids.js';
import type { CrmError } from '../../shared/errors.js';
import type { ToolDefinition } from './tool.js';

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
 * not say. Undefined when the id is of the argument's kind, or of no kind mixed up so.
 */
export function wrongKindIdHint(error: CrmError, tool: ToolDefinition, tools: readonly ToolDefinition[], args: Record<string, unknown> | undefined): string | undefined {
  const param = error.details.param;
  if (error.code !== 'not_found' || typeof param !== 'string') return undefined;
  const value = args?.[param];
  const given = kindOfId(value);
  const expected = kindOfArgument(tool, param);
  if (!given || !expected || given === expected) return undefined;
  const properties = tool.inputSchema.shape as Record<string, unknown>;
  if (param !== 'id' && Object.hasOwn(properties, `${given}_id`)) return `${String(value)} is a ${given} id: pass it as ${given}_id instead of ${param}.`;
  const sameToolForKind = tool.name.replace(new RegExp(`_${expected}$`), `_${given}`);
  if (param === 'id' && tools.some((t) => t.name === sameToolForKind)) return `${String(value)} is a ${given} id: use ${sameToolForKind} for it.`;
  return `${String(value)} is a ${given} id, not a ${expected}'s: find_${expected}s lists the ids of ${expected}s.`;
}
