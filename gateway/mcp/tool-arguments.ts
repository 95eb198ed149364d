import { z } from 'zod';
import { ValidationError, validationErrorFrom } from '../../shared/errors.js';
import { ID_PREFIXES, isMadeId, type IdKind } from '../../shared/ids.js';

/** Edit distance, for "did you mean": short parameter names, so the plain table is enough. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The valid parameter nearest to a guessed one: by spelling, or by meaning where a model's
 * usual guesses differ in spelling (`name` for `query`, `since` for `created_after`).
 */
const USUAL_GUESSES: Record<string, readonly string[]> = {
  query: ['name', 'search', 'q', 'text', 'term', 'keyword', 'full_name'],
  created_after: ['since', 'from', 'after', 'start', 'start_date', 'date_from'],
  created_before: ['until', 'to', 'before', 'end', 'end_date', 'date_to'],
  limit: ['count', 'max', 'page_size', 'size', 'n', 'top'],
  cursor: ['page', 'next', 'next_cursor', 'offset', 'page_token'],
  body: ['note', 'text', 'content', 'message'],
  // find_deals and count_deals take a stage or a pipeline by name or id under one name.
  stage: ['stage_name', 'status', 'stage_id'],
  pipeline: ['pipeline_id', 'pipeline_name'],
  // A contact's name is two fields: the error says to split it (parseToolArguments).
  first_name: ['name', 'full_name', 'fullname', 'contact_name', 'firstname', 'given_name'],
  last_name: ['surname', 'lastname', 'family_name'],
  id: ['contact_id', 'deal_id'],
  // The find tools take sort, list_notes order: a model carries one over to the other.
  sort: ['order', 'order_by', 'sort_by', 'sort_order'],
  order: ['sort', 'order_by', 'sort_by', 'sort_order', 'direction'],
  // recent_changes' own names: a model carries over those of the find tools.
  since: ['created_after', 'after', 'from', 'start', 'start_date', 'date_from'],
  within: ['created_within', 'period', 'range', 'when'],
  object_id: ['contact_id', 'deal_id', 'record_id', 'id'],
  // create_deal and update_deal: a model names a deal as most trackers do.
  name: ['title', 'deal_name', 'deal_title'],
  amount: ['value', 'deal_value', 'price'],
  closed_at: ['close_date', 'closed_date', 'closing_date', 'closed_on'],
  // Studio: what a custom field, a pipeline and a stage are called in other tools.
  position: ['order', 'index', 'rank', 'sort_order', 'place'],
  stages: ['stage_names', 'stage_list'],
  options: ['choices', 'values', 'select_options', 'enum'],
  type: ['field_type', 'data_type', 'value_type'],
  object_type: ['object', 'entity', 'record_type', 'applies_to', 'type'],
  include_archived: ['archived', 'show_archived', 'with_archived'],
  label: ['title', 'display_name'],
  key: ['field_key', 'api_name', 'slug', 'field_name'],
  required: ['is_required', 'mandatory'],
  is_default: ['default', 'make_default', 'set_default'],
};

/** The parameter that takes an id of this kind, by the id's prefix: `id: "deal_…"` on add_note means deal_id. */
const PARAMETER_BY_ID_PREFIX: readonly (readonly [prefix: string, parameter: string])[] = [
  [`${ID_PREFIXES.contact}_`, 'contact_id'],
  [`${ID_PREFIXES.deal}_`, 'deal_id'],
];

/** Names a model gives an id whose kind its value tells. */
const ID_GUESSES: ReadonlySet<string> = new Set(['id', 'record_id', 'object_id', 'parent_id', 'record']);

/**
 * The one parameter that takes ids with this value's prefix, by its description (an id
 * argument's starts with its prefix, `pipe_…`): `pipeline_id: "pipe_…"` on get_pipeline is
 * its `id`, `id: "stg_…"` on update_stage its `stage_id`, whatever name the model gave it.
 */
function parameterForIdValue(value: unknown, shape: z.ZodRawShape | undefined): string | undefined {
  if (typeof value !== 'string' || !shape) return undefined;
  const prefix = /^([a-z]+)_/.exec(value.trim())?.[1];
  if (!prefix || !(Object.values(ID_PREFIXES) as string[]).includes(prefix)) return undefined;
  const takers = Object.keys(shape).filter((name) => descriptionOf(shape[name] as z.ZodType)?.startsWith(`${prefix}_…`));
  return takers.length === 1 ? takers[0] : undefined;
}

export function nearestParameter(guess: string, valid: readonly string[], value?: unknown, shape?: z.ZodRawShape): string | undefined {
  const lower = guess.toLowerCase();
  if (ID_GUESSES.has(lower) && typeof value === 'string') {
    const byPrefix = PARAMETER_BY_ID_PREFIX.find(([prefix, parameter]) => value.startsWith(prefix) && valid.includes(parameter));
    if (byPrefix) return byPrefix[1];
  }
  const byIdValue = parameterForIdValue(value, shape);
  if (byIdValue) return byIdValue;
  for (const name of valid) if (USUAL_GUESSES[name]?.includes(lower)) return name;
  let best: { name: string; distance: number } | undefined;
  for (const name of valid) {
    const distance = editDistance(lower, name);
    if (distance <= Math.max(2, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
  return inner;
}

/** An argument's description, on it or on what it wraps (`.describe()` then `.optional()` leaves it on the inner schema). */
export function descriptionOf(schema: z.ZodType): string | undefined {
  let inner = schema;
  while (inner.description === undefined && (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault)) inner = inner.unwrap() as z.ZodType;
  return inner.description;
}

/** A boolean, or a boolean literal (update_pipeline's is_default takes only true: "true" is that true, not a string to refuse). */
function takesBoolean(schema: z.ZodType): boolean {
  return schema instanceof z.ZodBoolean || (schema instanceof z.ZodLiteral && [...schema.values].some((v) => typeof v === 'boolean'));
}

/**
 * "25" where a number is expected reads as 25, "true" or "false" where a boolean is as that
 * boolean, and " con_… " as the id it wraps: unambiguous, and common slips of small models.
 */
function withQuotedScalarsRead(args: Record<string, unknown>, shape: z.ZodRawShape): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  for (const [key, value] of Object.entries(args)) {
    const field = shape[key];
    if (typeof value !== 'string' || !field) continue;
    const inner = unwrapped(field as z.ZodType);
    const text = value.trim();
    // An id copied with a space or line break around it: otherwise a not_found for an id that exists. Id arguments only: text is kept as written.
    if (/(^|_)id$/.test(key) && text !== value && (Object.keys(ID_PREFIXES) as IdKind[]).some((kind) => isMadeId(kind, text))) out[key] = text;
    else if (inner instanceof z.ZodNumber && /^-?\d+(\.\d+)?$/.test(text)) out[key] = Number(text);
    else if (takesBoolean(inner) && /^(true|false)$/i.test(text)) out[key] = text.toLowerCase() === 'true';
  }
  return out;
}

/**
 * What reads as "not given" for an optional argument: small models fill every optional field.
 * On a reading tool a null or a blank text ("") does: a blank or null filter or cursor can only
 * mean "none". On a tool that creates, a null does (create_stage's position, create_custom_field's
 * required: a new record has nothing to clear, so it means the default), while a blank text is
 * still refused, as create_contact's e-mail is on purpose (it may be a slip). Tools that change
 * what exists keep both, where either may be a mistaken attempt to clear a field.
 */
export type OmittedBlanks = 'null-or-blank' | 'null' | 'none';

function withBlanksDropped(args: Record<string, unknown>, shape: z.ZodRawShape, omitted: OmittedBlanks): Record<string, unknown> {
  if (omitted === 'none') return args;
  const out: Record<string, unknown> = { ...args };
  for (const [key, value] of Object.entries(args)) {
    const field = shape[key] as z.ZodType | undefined;
    // A null the argument takes (if one ever does) is its own value, not "none".
    const blank = (value === null && !field?.safeParse(null).success) || (omitted === 'null-or-blank' && typeof value === 'string' && value.trim() === '');
    if (blank && field?.safeParse(undefined).success) delete out[key];
  }
  return out;
}

/**
 * A tool's arguments read strictly: an argument the tool does not have is an error that lists
 * the valid ones and suggests the nearest, never silently dropped (a model that guessed a name
 * would otherwise get a confident answer to a question it did not ask).
 */
export function parseToolArguments<S extends z.ZodObject>(schema: S, args: unknown, options: { omitted?: OmittedBlanks } = {}): z.output<S> {
  const given = args === undefined ? {} : args;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new ValidationError('Arguments must be a JSON object.');
  const shape = schema.shape as z.ZodRawShape;
  const valid = Object.keys(shape);
  const unknown = Object.keys(given).filter((k) => !Object.hasOwn(shape, k));
  if (unknown.length > 0) {
    const first = unknown[0]!;
    const nearest = nearestParameter(first, valid, (given as Record<string, unknown>)[first], shape);
    const list = valid.length > 0 ? `Valid parameters: ${valid.join(', ')}.` : 'This tool takes no parameters.';
    // A note is a record of its own, not a field: say where it goes.
    const noteTool = unknown.some((k) => /^notes?$/i.test(k)) && !valid.includes('body') ? ' To write a note about a record, use add_note.' : '';
    // One name where the tool takes two: say to split it, or the whole name lands in first_name.
    const splitName = nearest === 'first_name' && valid.includes('last_name') ? ' Give a full name as first_name and last_name.' : '';
    // Only writes that create take a key (tool.ts); the others are safe to repeat as they are.
    const noKey = unknown.includes('idempotency_key') ? ' This tool takes no idempotency_key: calling it again with the same arguments changes nothing more.' : '';
    throw new ValidationError(
      `Unknown parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `\`${k}\``).join(', ')}${nearest ? `: did you mean \`${nearest}\`?` : '.'} ${list}${noteTool}${splitName}${noKey}`,
      first,
    );
  }
  const read = withQuotedScalarsRead(given as Record<string, unknown>, shape);
  const parsed = schema.safeParse(withBlanksDropped(read, shape, options.omitted ?? 'none'));
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  return parsed.data;
}
