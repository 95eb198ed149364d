import { ID_PREFIXES } from './ids.js';

/**
 * "Did you mean": the valid parameter or field nearest to an unknown one, for the REST API's
 * unknown query parameters and body fields and the tool servers' unknown arguments alike.
 */

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
  // REST's contact and deal lists call the same search q.
  q: ['query', 'search', 'text', 'term', 'keyword'],
  created_after: ['since', 'created_since', 'from', 'after', 'start', 'start_date', 'date_from'],
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

/** The one parameter that takes ids like this value (`pipe_…`), whatever name it was given; the tool servers know it from their schemas. */
export type IdTaker = (value: unknown) => string | undefined;

/** The parameter that takes an id of this kind, by the id's prefix: `id: "deal_…"` on add_note means deal_id. */
const PARAMETER_BY_ID_PREFIX: readonly (readonly [prefix: string, parameter: string])[] = [
  [`${ID_PREFIXES.contact}_`, 'contact_id'],
  [`${ID_PREFIXES.deal}_`, 'deal_id'],
];

/** Names a model gives an id whose kind its value tells. */
const ID_GUESSES: ReadonlySet<string> = new Set(['id', 'record_id', 'object_id', 'parent_id', 'record']);

export function nearestParameter(guess: string, valid: readonly string[], value?: unknown, takerOfId?: IdTaker): string | undefined {
  const lower = guess.toLowerCase();
  if (ID_GUESSES.has(lower) && typeof value === 'string') {
    const byPrefix = PARAMETER_BY_ID_PREFIX.find(([prefix, parameter]) => value.startsWith(prefix) && valid.includes(parameter));
    if (byPrefix) return byPrefix[1];
  }
  const byIdValue = takerOfId?.(value);
  if (byIdValue) return byIdValue;
  for (const name of valid) if (USUAL_GUESSES[name]?.includes(lower)) return name;
  let best: { name: string; distance: number } | undefined;
  for (const name of valid) {
    const distance = editDistance(lower, name);
    if (distance <= Math.max(2, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Fields every record shows but no write takes: a client that sends a record back as read learns why they are refused. */
const SET_BY_THE_SERVICE: ReadonlySet<string> = new Set(['object', 'id', 'created_at', 'updated_at']);

/**
 * Every unknown name, each with its own suggestion where one is near: `emial (did you mean email?)`.
 * A client that sent three misspelt names learns all three at once, not one per try.
 */

export function namesWithGuesses(
  unknown: readonly string[],
  valid: readonly string[],
  given: Readonly<Record<string, unknown>>,
  options: { quote?: (name: string) => string; takerOfId?: IdTaker; recordFields?: boolean } = {},
): string {
  const quote = options.quote ?? ((name: string) => name);
  return unknown
    .map((name) => {
      const nearest = nearestParameter(name, valid, given[name], options.takerOfId);
      if (nearest !== undefined) return `${quote(name)} (did you mean ${quote(nearest)}?)`;
      // A record's own fields sent back in a body; as a query parameter, `id` is only unknown.
      return options.recordFields && SET_BY_THE_SERVICE.has(name) ? `${quote(name)} (read-only: the service sets it)` : quote(name);
    })
    .join(', ');
}
