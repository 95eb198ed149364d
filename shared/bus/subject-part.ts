/** One token of a subject: lowercase kebab-case, e.g. `api-tokens` or `exchange-code`. */
const SUBJECT_PART = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/**
 * Returns the part when it is lowercase kebab-case, and throws otherwise, so a malformed
 * operation or event fails when its module loads rather than as a subject no worker serves.
 */
export function subjectPart(role: string, value: string): string {
  if (!SUBJECT_PART.test(value)) throw new Error(`Bus ${role} "${value}" must be lowercase kebab-case, e.g. "api-tokens" or "exchange-code"`);
  return value;
}
