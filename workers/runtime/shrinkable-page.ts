/**
 * A page that can give back its first `count` rows as a page of their own (`has_more`
 * true, the cursor after the last of them), for a reply that would not fit in one bus
 * message. A symbol, so JSON and the contract's schema never see it; enumerable, so it
 * survives a handler spreading the page into its result (`{ ...page, applied_range }`).
 */
export const SHRINK_PAGE = Symbol('shrink page');

export interface PagePrefix<R> {
  data: R[];
  has_more: true;
  next_cursor: string;
}

export type Shrink<R> = (count: number) => PagePrefix<R>;

export function shrinkOf(result: unknown): Shrink<unknown> | undefined {
  if (result === null || typeof result !== 'object' || !(SHRINK_PAGE in result)) return undefined;
  const shrink = (result as { [SHRINK_PAGE]: unknown })[SHRINK_PAGE];
  return typeof shrink === 'function' ? (shrink as Shrink<unknown>) : undefined;
}

/**
 * How a row of a page (or a single result) too large for one bus message is given instead:
 * for events, without their data (`data_omitted`), as the stream gives them.
 */
export const OMIT_DATA = Symbol('omit data');

export type Omission = (item: unknown) => unknown;

export function omissionOf(result: unknown): Omission | undefined {
  if (result === null || typeof result !== 'object' || !(OMIT_DATA in result)) return undefined;
  const omit = (result as { [OMIT_DATA]: unknown })[OMIT_DATA];
  return typeof omit === 'function' ? (omit as Omission) : undefined;
}

/** `result`, with how to shorten it (or each of its rows) when too large. */
export function withOmission<T extends object, R>(result: T, omit: (item: R) => R): T & { [OMIT_DATA]: (item: R) => R } {
  return Object.assign(result, { [OMIT_DATA]: omit });
}
