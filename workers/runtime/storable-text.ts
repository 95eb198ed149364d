import { ValidationError } from '../../shared/errors.js';

/** U+0000, which Postgres text and jsonb cannot hold, or a UTF-16 surrogate without its pair, which is no character at all. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Refuses input holding text the database cannot store as given (in a value or a key),
 * naming where: a 400 for the caller rather than a database error.
 */
export function requireStorableText(value: unknown, path: readonly string[] = []): void {
  if (typeof value === 'string') {
    if (!UNSTORABLE.test(value)) return;
    const param = path.join('.') || undefined;
    throw new ValidationError(`${param ? `${param}: ` : ''}must not contain NUL characters or unpaired surrogates.`, param);
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => requireStorableText(item, [...path, String(i)]));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      requireStorableText(key, path);
      requireStorableText(item, [...path, key]);
    }
  }
}
