/** A field of a PATCH that changes nothing: not given, or given as it is stored. */
export function leftAsIs<T>(given: T | undefined, stored: T): boolean {
  return given === undefined || given === stored;
}
