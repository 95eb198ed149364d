/** U+0000, which Postgres text and jsonb cannot hold, or a UTF-16 surrogate without its pair, which is no character at all. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why text is refused when it holds such characters. */
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates.';

/** Whether text can be stored (and compared in a query) as given. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
