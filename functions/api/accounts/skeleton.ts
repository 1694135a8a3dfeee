// The confusable skeleton of a name (Unicode Technical Standard #39, section 4), made caseless.
// Data: Unicode's confusables.txt (version 13.0.0) as shipped by the `unhomoglyph` package
// (nodeca, MIT), which maps every confusable character to its prototype; confusables.generated.ts
// holds it grouped by prototype (`npm run codegen`): half the bytes of the JSON in the Lambda
// bundles, decoded on the first name compared instead of built when the bundle loads.
// UTS #39's skeleton is case-sensitive ("B" and "b" differ) and knows small capitals only as
// look-alikes of other lower-case letters (ʙ and Cyrillic в share a skeleton; в's capital В is a
// look-alike of B). A player sees "ʙob" as "Bob": so names are compared in lower case, and a
// small capital whose look-alike has a capital that looks like a Latin letter reads as that
// letter.
import { CONFUSABLES } from './confusables.generated.js';

let table: Map<string, string> | null = null;

/** Each confusable character's prototype (unhomoglyph's data.json, decoded once). */
export function confusablesTable(): Map<string, string> {
  if (!table) {
    table = new Map();
    for (const line of CONFUSABLES.split('\n')) {
      const at = line.indexOf('@');
      const prototype = line.slice(0, at);
      for (const ch of line.slice(at + 1)) table.set(ch, prototype);
    }
  }
  return table;
}

/** UTS #39 skeleton: NFD, each character replaced by its prototype, NFD again. */
export function utsSkeleton(s: string): string {
  const prototypes = confusablesTable();
  let out = '';
  for (const ch of s.normalize('NFD')) out += prototypes.get(ch) ?? ch;
  return out.normalize('NFD');
}

const uncased = (c: string) => c.toLowerCase() === c && c.toUpperCase() === c;

/**
 * Small capitals and other letters without case ("ʙ", "ᴛ", "ʜ") whose confusables.txt class holds
 * a cased letter ("в", "т", "н") whose capital is a look-alike of a Latin one ("В" → "B"): the
 * uncased letter stands for that capital's lower case ("b"). One step only, and only when every
 * such member agrees: chaining look-alike and case relations without end joins unrelated letters.
 */
function smallCapitals(): Map<string, string> {
  const members = new Map<string, string[]>();
  for (const [from, to] of confusablesTable()) {
    const target = to.normalize('NFD');
    if ([...target].length === 1 && uncased(target)) members.set(target, [...(members.get(target) ?? []), from]);
  }
  const out = new Map<string, string>();
  for (const [proto, list] of members) {
    const folded = new Set(list.filter((m) => !uncased(m)).map((m) => utsSkeleton(m.toUpperCase()).toLowerCase()));
    const [only] = folded;
    if (folded.size === 1 && only !== proto && !uncased(only)) out.set(proto, only);
  }
  return out;
}

let capitals: Map<string, string> | null = null;

/**
 * Digit and letter swaps. confusables.txt (13.0.0) maps "0" to "O", "1", "I", "|" to "l", and "m"
 * to "rn", so B0b, B1ll and Sarn meet Bob, Bll and Sam in the skeleton. Lower case first, though,
 * turns "I" into "i", which UTS #39 keeps apart from "l" (case-sensitive, it needs no more): "Bill"
 * and "B1ll" would differ. A caseless comparison holds "BILL" and "Bill" equal and "BILL" looks
 * like "B1LL", so "i" (and what reads as it: ı, ι, í once accents are dropped) reads as "l". The
 * one case relation added: folding every letter into its capital's look-alike joins letters that
 * do not look alike (Greek ν with n, η with h).
 */
const STROKE = 'l';
const foldStroke = (ch: string) => (ch === 'i' ? STROKE : ch);

/**
 * The caseless skeleton: UTS #39 skeleton, lower case and skeleton again, repeated until stable (a
 * prototype may be a capital: "0" → "O"), with the small capitals of smallCapitals() read as their letter and "i"
 * as "l" (foldStroke).
 */
export function caselessSkeleton(s: string): string {
  capitals ??= smallCapitals();
  let x = s;
  for (let i = 0; i < 4; i++) {
    let next = '';
    // The skeleton before lower case too: a capital may look like a Latin one while its lower
    // case does not (Greek "Η" is "H", "η" is not "h"): "ΗOOK" reads as "HOOK", that is "Hook".
    for (const ch of utsSkeleton(utsSkeleton(x).toLowerCase())) next += foldStroke(capitals.get(ch) ?? ch);
    if (next === x) break;
    x = next;
  }
  return x;
}
