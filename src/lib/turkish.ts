/**
 * Turkish letters and their plain Latin ones, in the order SQL's `translate()` takes them: the
 * database's `fold_search` (migration 0001) uses exactly these two strings, and a test compares both.
 */
export const FOLD_FROM = 'İIıŞşĞğÜüÖöÇçÂâÎîÛû';
export const FOLD_TO = 'iiissgguuooccaaiiuu';
const FOLDED = new Map([...FOLD_FROM].map((letter, index) => [letter, FOLD_TO[index]!]));
const FOLDABLE = new RegExp(`[${FOLD_FROM}]`, 'g');

/**
 * Lower case with Turkish letters folded to their plain Latin ones (İ/I/ı → i, ş → s, â → a, …), so
 * "IŞIK", "ışık" and "isik" compare equal, here as in the database.
 */
export function foldTurkish(text: string): string {
  return text.replace(FOLDABLE, (letter) => FOLDED.get(letter) ?? letter).toLowerCase();
}
