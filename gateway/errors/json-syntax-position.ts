/** V8's own position in a JSON.parse message: "… in JSON at position 19 (line 1 column 20)". */
const AT_POSITION = /at position (\d+)/;
const END_OF_INPUT = 'Unexpected end of JSON input';
/**
 * The longest body whose error position is searched for (some 20 parses of it) when V8 names
 * none: a BODY_LIMIT raised to megabytes must not make each malformed body cost 20 times its parse.
 */
const SEARCHED_LENGTH = 256 * 1024;

/** Where a JSON text read by JSON.parse stops being valid: `text.length` if it only ends too soon; undefined if it parses. */
function errorPosition(text: string): number | undefined {
  const failure = failureOf(text);
  if (failure === undefined) return undefined;
  if (failure === END_OF_INPUT) return text.length;
  const at = AT_POSITION.exec(failure);
  if (at) return Number(at[1]);
  if (text.length > SEARCHED_LENGTH) return undefined;
  // "Unexpected token 'x', "…" is not valid JSON" names no position. Every prefix shorter than
  // the error is a valid beginning (JSON.parse says it ends too soon, or fails at its very
  // end); the first prefix that is not ends at the character at fault.
  let valid = 0;
  let invalid = text.length;
  while (invalid - valid > 1) {
    const middle = (valid + invalid) >>> 1;
    if (validBeginning(text.slice(0, middle))) valid = middle;
    else invalid = middle;
  }
  return invalid - 1;
}

function failureOf(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function validBeginning(prefix: string): boolean {
  const failure = failureOf(prefix);
  if (failure === undefined || failure === END_OF_INPUT) return true;
  const at = AT_POSITION.exec(failure);
  return at !== null && Number(at[1]) >= prefix.length;
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `line ${before.length}, column ${(before.at(-1) ?? '').length + 1}`;
}

/** One character as a reader can see it: itself when visible ASCII, else its code point. */
function shown(character: string): string {
  return /^[\x21-\x7e]$/.test(character) ? `'${character}'` : `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The message of an invalid_json error: where the body stops being JSON (position, line and
 * column, as an editor shows them) and what is there, so the client can find its mistake
 * without guessing. Never a quote of the body beyond that one character: it may hold a secret.
 */
export function invalidJsonMessage(body: unknown, error: Error): string | undefined {
  // Valid JSON that the parser's key check (a reviver, which recurses) could not walk: arrays or objects thousands deep.
  if (error instanceof RangeError) return 'The request body nests arrays or objects too deeply to be read.';
  if (typeof body !== 'string' || body.length === 0) return undefined;
  const start = body.search(/\S/);
  // The parser takes only an object (or an array, refused later): a lone string, number or literal is no request body.
  if (start !== -1 && body[start] !== '{' && body[start] !== '[') {
    return `The request body is not a JSON object: it begins with ${shown(body[start] as string)} at position ${start} (${lineAndColumn(body, start)}).`;
  }
  const position = errorPosition(body);
  if (position === undefined) return undefined;
  const where = `position ${position} (${lineAndColumn(body, position)})`;
  if (position >= body.length) return `The request body is not valid JSON: it ends at ${where} before the JSON value is complete.`;
  return `The request body is not valid JSON: unexpected ${shown(String.fromCodePoint(body.codePointAt(position) ?? 0))} at ${where}.`;
}
