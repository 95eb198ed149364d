/** A LIKE pattern matching strings that start with `text` (its own % and _ match literally). */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

