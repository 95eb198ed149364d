import { nameKey } from '../../../shared/contracts/common.js';
import type { Pipeline } from '../../../shared/contracts/pipelines.js';
import { InternalError, ValidationError } from '../../../shared/errors.js';
import { ID_PREFIXES, isMadeId, type IdKind } from '../../../shared/ids.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A day written YYYY-MM-DD that the calendar has (2026-02-30 is not one), or undefined when not given. */
export function day(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const parts = DAY.exec(value);
  const date = parts ? new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]))) : undefined;
  if (!date || date.toISOString().slice(0, 10) !== value) throw new ValidationError(`${name} must be a date written YYYY-MM-DD that the calendar has, e.g. 2026-01-31; got ${JSON.stringify(value)}`, name);
  return value;
}

/**
 * A user-written value inside a prompt's text: JSON-quoted, so a quote or a line break in it cannot
 * end the quotation and read as a step; the line and paragraph separators JSON leaves as they are
 * (U+2028, U+2029, and NEL, U+0085) are escaped too, as a reader may break the line at them.
 */
export function quoted(value: string): string {
  return JSON.stringify(value).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const quotedNames = (names: readonly string[]) => names.map(quoted).join(', ');

/** The pipeline named (case and spacing ignored, as names are unique) or given by id, or the default one when none is. */
export function pipelineNamed(pipelines: readonly Pipeline[], name: string | undefined): Pipeline {
  if (name === undefined) {
    const chosen = pipelines.find((p) => p.is_default) ?? pipelines[0];
    if (!chosen) throw new InternalError('The workspace has no pipeline.');
    return chosen;
  }
  const byId = pipelines.find((p) => p.id === name);
  const named = byId ? [byId] : pipelines.filter((p) => nameKey(p.name) === nameKey(name));
  // Two only where names kept from before spacing was folded read as one now: choosing would be a guess.
  if (named.length > 1) throw new ValidationError(`pipeline: several pipelines are named ${JSON.stringify(name)} but for spacing or characters that show as nothing; give the id of one: ${named.map((p) => p.id).join(', ')}.`, 'pipeline');
  const [found] = named;
  if (!found) throw new ValidationError(`pipeline: there is no pipeline named ${JSON.stringify(name)}. Pipelines: ${quotedNames(pipelines.map((p) => p.name))}.`, 'pipeline');
  return found;
}

/** An active stage of the pipeline, by name (case and spacing ignored). */
export function stageNamed(pipeline: Pipeline, name: string): string {
  const active = pipeline.stages.filter((s) => !s.archived).map((s) => s.name);
  const found = active.find((s) => nameKey(s) === nameKey(name));
  if (!found) throw new ValidationError(`stage: the pipeline ${JSON.stringify(pipeline.name)} has no stage named ${JSON.stringify(name)}. Its stages: ${quotedNames(active)}.`, 'stage');
  return found;
}

const ID_KINDS = Object.keys(ID_PREFIXES) as IdKind[];

/**
 * An id of another kind where a record of `kinds` goes (a deal's id as the contact) is refused,
 * not searched for as a name. Only a whole id counts: deal_desk@acme.test is an e-mail address.
 */
export function refuseOtherKindOfId(value: string, name: string, kinds: readonly IdKind[]): void {
  const kind = ID_KINDS.find((k) => isMadeId(k, value));
  if (kind === undefined || kinds.includes(kind)) return;
  const wanted = kinds.map((k) => `a ${k} (${ID_PREFIXES[k]}_…)`).join(' or ');
  throw new ValidationError(`${name}: ${JSON.stringify(value)} is the id of a ${kind}; ${name} takes ${wanted}, by id or by name.`, name);
}
