import { ValidationError } from '../../shared/errors.js';
import type { ToolDefinition } from './tool.js';

/**
 * An update given only what names its record changes nothing, yet answered the record as a
 * success: a model that forgot the fields, or meant another tool, reported the change as made.
 * Refused, naming what the tool can change. Undefined when something is to change.
 */
export function nothingToChangeError(tool: ToolDefinition, args: Record<string, unknown>): ValidationError | undefined {
  const names = tool.identifiedBy;
  if (!names || Object.keys(args).some((k) => !names.includes(k))) return undefined;
  const changeable = Object.keys(tool.inputSchema.shape).filter((k) => !names.includes(k));
  return new ValidationError(
    `${tool.name} was given only ${names.map((n) => `\`${n}\``).join(' and ')}, so it would change nothing. Give at least one of: ${changeable.join(', ')}.`,
  );
}
