/** A LIKE pattern matching strings that start with `text` (its own % and _ match literally). */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A LIKE pattern matching strings that contain `text` anywhere. */
export function likeAnywhere(text: string): string {
  return `%${likePrefix(text)}`;
}
