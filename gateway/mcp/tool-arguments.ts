import { z } from 'zod';
import { ValidationError, validationErrorFrom } from '../../shared/errors.js';
import { ID_PREFIXES, isMadeId, type IdKind } from '../../shared/ids.js';
import { namesWithGuesses, nearestParameter } from '../../shared/nearest-parameter.js';

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
    const takerOfId = (value: unknown) => parameterForIdValue(value, shape);
    const nearest = nearestParameter(first, valid, (given as Record<string, unknown>)[first], takerOfId);
    const list = valid.length > 0 ? `Valid parameters: ${valid.join(', ')}.` : 'This tool takes no parameters.';
    // A note is a record of its own, not a field: say where it goes.
    const noteTool = unknown.some((k) => /^notes?$/i.test(k)) && !valid.includes('body') ? ' To write a note about a record, use add_note.' : '';
    // One name where the tool takes two: say to split it, or the whole name lands in first_name.
    const splitName = nearest === 'first_name' && valid.includes('last_name') ? ' Give a full name as first_name and last_name.' : '';
    // Only writes that create take a key (tool.ts); the others are safe to repeat as they are.
    const noKey = unknown.includes('idempotency_key') ? ' This tool takes no idempotency_key: calling it again with the same arguments changes nothing more.' : '';
    throw new ValidationError(
      `${unknown.length === 1 ? `Unknown parameter \`${first}\`${nearest ? `: did you mean \`${nearest}\`?` : '.'}` : `Unknown parameters ${namesWithGuesses(unknown, valid, given as Record<string, unknown>, { quote: (k) => `\`${k}\``, takerOfId, recordFields: true })}.`} ${list}${noteTool}${splitName}${noKey}`,
      first,
    );
  }
  const read = withQuotedScalarsRead(given as Record<string, unknown>, shape);
  const parsed = schema.safeParse(withBlanksDropped(read, shape, options.omitted ?? 'none'));
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  return parsed.data;
}
