/**
 * zod's own wording of the commonest refusals ("Too big: expected string to have <=64
 * characters", "Invalid input: expected number, received string") in the words a client
 * developer or a small model reads at once; validationErrorFrom (./errors.ts) uses them.
 */

/** What a JSON value of each type is called in a refusal. */
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** "must be a number, not text": zod's invalid_type for JSON's types; null for others (its message stays). */
export function typeInWords(expected: string, message: string): string | null {
  const received = /received (\w+)$/.exec(message)?.[1];
  const want = TYPE_WORDS[expected];
  const got = received === undefined ? undefined : TYPE_WORDS[received];
  if (want === undefined || got === undefined) return null;
  // `.int()` fails 1.5 as "expected int, received number": a number it is, just not a whole one.
  if (expected === 'int' && received === 'number') return 'must be a whole number';
  return `must be ${want}, not ${got}`;
}

/** "must be at most 64 characters": zod's too_big and too_small in words; null for sizes JSON has no word for. */
export function sizeInWords(issue: { code: 'too_big' | 'too_small'; origin: string; inclusive?: boolean; maximum?: unknown; minimum?: unknown }): string | null {
  const big = issue.code === 'too_big';
  const bound = Number(big ? issue.maximum : issue.minimum);
  if (!Number.isFinite(bound)) return null;
  const n = bound.toLocaleString('en');
  const plural = (one: string, many: string) => (bound === 1 ? one : many);
  switch (issue.origin) {
    case 'string':
      if (!big && bound === 1) return 'must not be empty';
      return `must be ${big ? 'at most' : 'at least'} ${n} ${plural('character', 'characters')}`;
    case 'array':
      if (!big && bound === 1) return 'must not be an empty list';
      return `must have ${big ? 'at most' : 'at least'} ${n} ${plural('item', 'items')}`;
    case 'number':
    case 'int':
      if (issue.inclusive === false) return `must be ${big ? 'less' : 'greater'} than ${n}`;
      return `must be ${big ? 'at most' : 'at least'} ${n}`;
    default:
      return null;
  }
}
