/** A UTF-16 surrogate without its pair, which is no character at all. */
export const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** U+0000, which Postgres text and jsonb cannot hold, or an unpaired surrogate. */
const UNSTORABLE = new RegExp(`\\u0000|${UNPAIRED_SURROGATE.source}`);

/** Why text is refused when it holds such characters. */
export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates.';

/** Whether text can be stored (and compared in a query) as given. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
