const TURKISH_LETTERS: Record<string, string> = {
  İ: 'i',
  I: 'i',
  ı: 'i',
  Ş: 's',
  ş: 's',
  Ğ: 'g',
  ğ: 'g',
  Ü: 'u',
  ü: 'u',
  Ö: 'o',
  ö: 'o',
  Ç: 'c',
  ç: 'c',
};

/**
 * Lower case with Turkish letters folded to their plain Latin ones (İ/I/ı → i, ş → s, …), so
 * "IŞIK", "ışık" and "isik" compare equal. The same rule as the SQL `fold_search`.
 */
export function foldTurkish(text: string): string {
  return text.replace(/[İIıŞşĞğÜüÖöÇç]/g, (char) => TURKISH_LETTERS[char] ?? char).toLowerCase();
}
