import { InvalidScopeError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { MAX_REQUESTED_SCOPES, MAX_SCOPE_LENGTH } from '../../shared/contracts/oauth.js';

/** RFC 6749 §3.3: a scope-token is printable ASCII without a space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The scope values of an authorization request's `scope`. One that is malformed, too long or
 * one too many is invalid_scope naming `scope` (RFC 6749 §4.1.2.1), not invalid_request naming
 * the bus contract's `scopes.0`. Extra spaces between values are forgiven.
 */
export function scopeValues(scope: string | undefined): string[] {
  if (scope === undefined) return [];
  const values = scope.split(' ').filter((value) => value !== '');
  if (values.length > MAX_REQUESTED_SCOPES) throw new InvalidScopeError(`scope names ${values.length} values; at most ${MAX_REQUESTED_SCOPES} are taken.`);
  const malformed = values.find((value) => value.length > MAX_SCOPE_LENGTH || !SCOPE_TOKEN.test(value));
  if (malformed !== undefined) {
    throw new InvalidScopeError(`scope value "${malformed.slice(0, 40)}" is not valid: values are separated by spaces, at most ${MAX_SCOPE_LENGTH} printable ASCII characters each, without " or \\.`);
  }
  return values;
}
