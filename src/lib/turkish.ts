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

// The dative ending of each number word, after an apostrophe: "bir" → 'e, "altı" → 'ya, "on" → 'a.
const UNIT_DATIVE = ['', 'e', 'ye', 'e', 'e', 'e', 'ya', 'ye', 'e', 'a'];
const TEN_DATIVE = ['', 'a', 'ye', 'a', 'a', 'ye', 'a', 'e', 'e', 'a'];

/**
 * The dative suffix of a whole number as it is read aloud ("300'e", "10'a", "1.250'ye", "6'ya"):
 * vowel harmony and the buffer y follow the last spoken word (sıfır, units, tens, yüz, bin, milyon, milyar).
 */
export function turkishDativeSuffix(value: number): string {
  const whole = Math.abs(Math.trunc(value));
  if (whole === 0) return 'a';
  if (whole % 10 !== 0) return UNIT_DATIVE[whole % 10]!;
  if (whole % 100 !== 0) return TEN_DATIVE[Math.trunc(whole / 10) % 10]!;
  if (whole % 1000 !== 0) return 'e'; // yüz
  if (whole % 1_000_000 !== 0) return 'e'; // bin
  if (whole % 1_000_000_000 !== 0) return 'a'; // milyon
  return 'a'; // milyar
}
