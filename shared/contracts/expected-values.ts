import type { z } from 'zod';

/**
 * The values of the fields a write changes, as the writer read them (in the record's own
 * shape): the worker refuses the write (409 conflict, naming the field) when one of those fields
 * now holds another value and not the one written, so a change someone made meanwhile to that
 * field is not silently overwritten; changes to other fields do not get in the way. The
 * console's edit forms send it.
 */
export function expectedValuesOf<T extends z.ZodObject>(fields: T) {
  return fields
    .partial()
    .strict()
    .optional()
    .describe('The changed fields as they were read: a field now holding another value (someone changed it since) is a conflict, and nothing changes');
}
