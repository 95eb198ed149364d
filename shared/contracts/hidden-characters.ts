import type { z } from 'zod';

/** Unicode's format characters and those it says to draw as nothing: a name may hold one only where it does something (below). */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** What shows, as common.ts' VISIBLE says (a combining mark shows with its base, an emoji modifier as a colour). */
const SHOWN = /[^\s\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** The bidirectional marks names already take (common.ts' BIDI_CONTROLS_MESSAGE): mixed-direction names need them. */
const MARKS = /[\u061C\u200E\u200F]/u;

/** Embeddings, overrides and isolates: refused in names by withoutBidiControls, with its own message. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * Joiners shape what is on both sides: ZWNJ and ZWJ in Persian, Indic scripts and emoji
 * sequences (👩‍💻), the Mongolian vowel separator in Mongolian words. Next to a space or at
 * either end they join nothing, only make a twin of a name ("Closed \u200dWon").
 */
const JOINERS = new Set(['\u200C', '\u200D', '\u180E']);

/**
 * Variation selectors pick a form of the character before them: the emoji ❤️ (U+FE0F), a
 * keycap, an ideograph's variant in a Japanese name, a Mongolian letter's form. With no
 * character before them they select nothing.
 */
const SELECTORS = /[\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;

/**
 * A subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿, Scotland): a black flag, tag letters, a cancel tag. Tag letters
 * anywhere else are refused: they spell hidden ASCII that a model reading the name may obey.
 */
const FLAG_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

/** Names for the characters a paste most often brings, so a refusal says what to look for. */
const CHARACTER_NAMES: Readonly<Record<number, string>> = {
  0x00ad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero-width space',
  0x200c: 'zero-width non-joiner',
  0x200d: 'zero-width joiner',
  0x2060: 'word joiner',
  0x3164: 'Hangul filler',
  0xfeff: 'zero-width no-break space, the byte order mark',
};

/** "U+200B (zero-width space)", or "U+E0041" for one without a name here. */
function codePoint(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const name = CHARACTER_NAMES[code];
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}${name ? ` (${name})` : ''}`;
}

/** Why a name holding `character` at `at` in `characters` looks like another, or null when it is where it does something. */
function misplaced(characters: readonly string[], at: number): string | null {
  const character = characters[at] ?? '';
  if (!INVISIBLE.test(character) || MARKS.test(character) || BIDI_CONTROLS.test(character)) return null;
  const before = characters[at - 1] ?? '';
  const after = characters[at + 1] ?? '';
  const follows = SHOWN.test(before) || SELECTORS.test(before);
  if (SELECTORS.test(character)) return follows ? null : 'a variation selector belongs right after the character it selects a form of';
  if (JOINERS.has(character)) return follows && SHOWN.test(after) ? null : 'a joiner belongs between two characters, not at either end or next to a space';
  return 'it shows as nothing';
}

/**
 * Refuses a name (a pipeline's, a stage's, a label, a select option) holding a character that
 * shows as nothing: "Closed \u200bWon", "Closed\u2060Won" or "Clo\u00adsed Won" would be stored
 * beside "Closed Won" and look the same in every list. The joiners and selectors scripts and
 * emoji need are kept where they do something, and the bidirectional marks anywhere.
 */
export function refuseHiddenCharacters(name: string, ctx: z.RefinementCtx<string>): void {
  const characters = [...name.replace(FLAG_TAG_SEQUENCE, '\u{1F3F4}')];
  for (let at = 0; at < characters.length; at++) {
    const why = misplaced(characters, at);
    if (why === null) continue;
    ctx.addIssue({
      code: 'custom',
      input: name,
      message: `must not contain ${codePoint(characters[at] ?? '')}: ${why}, so the name would look like another. Remove it; joiners (U+200C, U+200D) between two characters, variation selectors after one, and the marks U+200E and U+200F are fine`,
    });
    return;
  }
}
