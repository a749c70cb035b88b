/** Words a reader reads in a minute, for "N min read" (a common figure for screen reading). */
export const WORDS_PER_MINUTE = 200;

/**
 * Words of a post's Markdown as readers see them: link targets, image addresses, HTML tags and
 * Markdown marks are not words. Client-safe: the editor counts as the article page does.
 */
export function countWords(markdown: string): number {
  const text = markdown
    .replace(/<[^>]*>/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ');
  return text.match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/** Whole minutes, at least one for any text. */
export function readingMinutes(words: number): number {
  return words === 0 ? 0 : Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
