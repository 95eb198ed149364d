/** A LIKE pattern matching strings that contain `text` anywhere (its own % _ and \ match literally). */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
