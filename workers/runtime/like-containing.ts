import { likeLiteral } from './like-prefix.js';

/** A LIKE pattern matching strings that contain `text` anywhere (its own % _ and backslash match literally). */
export function likeContaining(text: string): string {
  return `%${likeLiteral(text)}%`;
}
