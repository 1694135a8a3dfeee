// Display names: one normal form for storing and showing, one "skeleton" for comparing.
// - stored: NFC, trimmed, inner whitespace collapsed to one space, 1-40 characters;
// - refused: control, format (bidi overrides, zero-width), separator, private-use and unassigned
//   characters; a first word that reads "Bot" (the bots' prefix, in any case or look-alike
//   spelling: "B0t", Cyrillic "Вот"...);
// - compared (uniqueness of names, look-alikes of bot names) by `nameKey`: the caseless confusable
//   skeleton of Unicode's UTS #39 (skeleton.ts), everything but letters and digits dropped (save
//   symbols that look like them: "|" reads as "l").
import { ApiError } from '../errors.js';
import { caselessSkeleton, utsSkeleton } from './skeleton.js';

export const NAME_MAX = 40;

const bad = (m: string): never => {
  throw new ApiError('BAD_USER_INPUT', m);
};

/**
 * The comparison key of a name: its letters and digits (lettersOf) through the UTS #39 skeleton,
 * NFKC (fullwidth and compatibility forms) and the caseless confusable skeleton (skeleton.ts),
 * repeated until nothing changes, so a key is its own key. Spaces, punctuation and accents do not
 * tell two names apart. "Jасk" (Cyrillic а, с), "ʙᴏb", "Ᏼob", "B0B" all key as "bob".
 */
export function nameKey(name: string): string {
  let key = name;
  for (let i = 0; i < 8; i++) {
    const next = caselessSkeleton(lettersOf(utsSkeleton(lettersOf(key)).normalize('NFKC')));
    if (next === key) break;
    key = next;
  }
  return key;
}

/** A symbol whose UTS #39 prototype is Latin letters or digits ("|" → "l", "‖" → "ll", "×" → "x") reads as them: "B|ll" is "Bill". */
const LETTER_LIKE = /^[A-Za-z0-9]+$/;
const lettersOf = (s: string) =>
  s.normalize('NFD').replace(/[^\p{L}\p{N}]/gu, (ch) => (LETTER_LIKE.test(utsSkeleton(ch)) ? utsSkeleton(ch) : ''));

const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u;
/**
 * Characters that show as nothing or as a blank but are letters (U+3164 HANGUL FILLER, U+FFA0,
 * U+115F/U+1160: category Lo, so FORBIDDEN lets them through): Unicode's Default_Ignorable_Code_Point
 * set, plus the blank braille pattern U+2800. "Anne\u3164Bonny" looked like "Anne Bonny".
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2800]/u;

/** The stored form of a display name, or BAD_USER_INPUT saying why it is refused. */
export function normaliseName(raw: string): string {
  if (typeof raw !== 'string') bad('a name is a string');
  const nfc = raw.normalize('NFC');
  if (FORBIDDEN.test(nfc))
    bad('a name may not contain control, formatting (bidi, zero-width) or unassigned characters');
  if (INVISIBLE.test(nfc)) bad('a name may not contain invisible or filler characters (e.g. U+3164 HANGUL FILLER)');
  const name = nfc.replace(/\s+/gu, ' ').trim();
  const length = [...name].length;
  if (length < 1 || length > NAME_MAX) bad(`a name has 1-${NAME_MAX} characters`);
  if (nameKey(name).length === 0) bad('a name needs at least one letter or digit');
  const first = name.split(/[\s\p{P}\p{S}]+/u).find((w) => w.length > 0) ?? '';
  if (nameKey(first) === 'bot') bad('names starting with "Bot" are reserved for bots');
  return name;
}
