import { z } from 'zod';
import { ID_PREFIXES, type IdKind } from '../../../shared/ids.js';

/**
 * An argument that takes a record's id, described by its prefix (`pipe_…`: the hints that
 * find where a mistaken id goes read it there). A blank is refused as missing, not looked up:
 * "No such pipeline: ." did not tell a model it had sent nothing.
 */
export function idArgument(kind: IdKind) {
  const prefix = `${ID_PREFIXES[kind]}_…`;
  // Trimmed first, so that spaces alone are missing too.
  return z.string().trim().min(1, `is required: an id such as ${prefix}`).max(64).describe(prefix);
}
