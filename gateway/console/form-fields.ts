import type { Request } from 'express';
import { nullPrototypeRecord } from '../../shared/null-prototype.js';
import { parseLocalDate, startOfDay } from '../../shared/time/zoned-day.js';

/** Console forms are urlencoded: a field is a string, several checkboxes of one name are an array. */
type FormBody = Record<string, string | string[] | undefined>;

function body(req: Request): FormBody {
  return req.body && typeof req.body === 'object' ? (req.body as FormBody) : {};
}

export function textField(req: Request, name: string, max = 500): string {
  const value = body(req)[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

export function listField(req: Request, name: string): string[] {
  const value = body(req)[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string').slice(0, 50);
}

/** A query string without its empty fields: an empty search box means no filter. */
export function filledQuery(query: Request['query']): Record<string, string> {
  const out = nullPrototypeRecord<string>();
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string' && value.trim() !== '') out[key] = value;
  return out;
}

/**
 * A `<input type=date>` value as the instant the day starts in the workspace's time zone (the one
 * the console shows times in); anything else is passed on as typed, for the schema to refuse.
 */
export function dayStart(value: string | undefined, timeZone: string): string | undefined {
  const day = value === undefined ? null : parseLocalDate(value);
  return day ? startOfDay(day, timeZone).toISOString() : value;
}

/** A path parameter as one string. */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}
