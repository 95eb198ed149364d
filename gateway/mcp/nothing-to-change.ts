import { ValidationError } from '../../shared/errors.js';
import type { ToolDefinition } from './tool.js';
import { UNCHANGED_SINCE } from './unchanged-since.js';

/**
 * An update given only what names its record changes nothing, yet answered the record as a
 * success: a model that forgot the fields, or meant another tool, reported the change as made.
 * Refused, naming what the tool can change. Undefined when something is to change.
 */
export function nothingToChangeError(tool: ToolDefinition, args: Record<string, unknown>): ValidationError | undefined {
  const names = tool.identifiedBy;
  // unchanged_since is a condition on the change, not one.
  const notChanges = [...(names ?? []), ...(tool.unchangedSince ? [UNCHANGED_SINCE] : [])];
  // custom_fields: {} merges nothing: as good as left out.
  const changes = Object.entries(args).filter(([k, v]) => !notChanges.includes(k) && !isEmptyObject(v));
  if (!names || changes.length > 0) return undefined;
  const changeable = Object.keys(tool.inputSchema.shape).filter((k) => !notChanges.includes(k));
  const emptyMerge = changeable.includes('custom_fields') ? ' (an empty custom_fields changes none)' : '';
  return new ValidationError(
    `${tool.name} would change nothing: besides ${names.map((n) => `\`${n}\``).join(' and ')} it was given no field to change${emptyMerge}. Give at least one of: ${changeable.join(', ')}.`,
  );
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
