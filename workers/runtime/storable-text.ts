import { ValidationError } from '../../shared/errors.js';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../shared/storable-text.js';

/**
 * Refuses input holding text the database cannot store as given (in a value or a key),
 * naming where: a 400 for the caller rather than a database error.
 */
export function requireStorableText(value: unknown): void {
  const path = unstorablePath(value);
  if (path === null) return;
  const param = path.join('.') || undefined;
  throw new ValidationError(`${param ? `${param}: ` : ''}${UNSTORABLE_TEXT_MESSAGE}`, param);
}

/** Where unstorable text is (a key counts as its object's place), or null; the path is built only on the way back from a find. */
function unstorablePath(value: unknown): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = unstorablePath(value[i]);
      if (inner) return [String(i), ...inner];
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return [];
      const inner = unstorablePath(item);
      if (inner) return [key, ...inner];
    }
  }
  return null;
}
