/**
 * The characters Unicode says to draw as nothing (Default_Ignorable_Code_Point: U+200B, the word
 * joiner, the soft hyphen, bidi marks, variation selectors, tag characters, the Hangul filler and
 * the like), but U+FEFF, which JavaScript's \s counts as white space and singleSpaced makes a space.
 * The same list as SHOWN_AS_NOTHING in workers/runtime/same-name.ts (the workers compare in SQL;
 * test/unit/name-key-sql.test.ts holds the two alike).
 */
const SHOWN_AS_NOTHING = /(?!\uFEFF)\p{Default_Ignorable_Code_Point}/gu;

/**
 * `text` without the characters that show as nothing: "Closed\u200bWon" looks like "Closed Won" in
 * every list, so names are compared without them (nameKey). Only for comparing: a name is stored
 * and shown as sent, since refusing them left fields stored with one uneditable, and some scripts
 * need one. The joiners ZWNJ and ZWJ (U+200C, U+200D) are dropped too, though Persian, Indic
 * scripts and emoji use them: two names that differ only by a joiner look alike or nearly to most
 * readers, and dropping it here only makes such a pair one name (a second is refused as a repeat,
 * a lookup finds the first); it never changes what is stored or shown.
 */
export const withoutShownAsNothing = (text: string): string => text.replace(SHOWN_AS_NOTHING, '');

/** U+200B, as a message names a character. */
const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * What a refusal adds when it quotes two names that are one as compared, and either holds
 * characters that show as nothing: which ones, since the quoted pair reads as one text twice
 * (or as two names that look like one). Empty when neither holds any.
 */
export function hiddenDifference(name: string, twin: string): string {
  const hidden = [...new Set([...(name.match(SHOWN_AS_NOTHING) ?? []), ...(twin.match(SHOWN_AS_NOTHING) ?? [])])];
  if (hidden.length === 0) return '';
  return ` (characters that show as nothing are ignored when names are compared: ${hidden.map(codePoint).join(', ')})`;
}
