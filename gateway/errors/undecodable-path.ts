import { ValidationError } from '../../shared/errors.js';

/**
 * The router could not decode a path parameter: a malformed percent-escape such as `%` or
 * `%E0%A4%A`. The client's mistake, answered as a 400 by the API and the pages alike.
 */
export function undecodablePathError(error: unknown): ValidationError | null {
  if (error instanceof URIError && (error as { status?: unknown }).status === 400) {
    return new ValidationError('The URL path is not valid: a percent-escape in it does not decode.');
  }
  return null;
}
