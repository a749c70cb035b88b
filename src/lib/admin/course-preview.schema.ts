import { z } from '../zod.ts';

/**
 * A course's free preview pages, as the admin types them: empty (no preview), "5" (the first five
 * pages) or "3-7" (a range). Client-safe: the island and the endpoint check it the same way.
 */
export interface PreviewPages {
  firstPage: number;
  lastPage: number;
}

/** The database's bound (migration 0038's CHECK): no course file has more pages. */
export const MAX_PREVIEW_PAGE = 10_000;
const PREVIEW_PAGES = /^(\d{1,5})(?:\s*[-–]\s*(\d{1,5}))?$/;

export function parsePreviewPages(text: string): PreviewPages | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (trimmed.length > 20) return 'invalid';
  const match = PREVIEW_PAGES.exec(trimmed);
  if (!match) return 'invalid';
  const [firstPage, lastPage] = match[2] === undefined ? [1, Number(match[1])] : [Number(match[1]), Number(match[2])];
  if (firstPage < 1 || firstPage > lastPage || lastPage > MAX_PREVIEW_PAGE) return 'invalid';
  return { firstPage, lastPage };
}

/** The pages a course row stores (migration 0038), or null for no preview. */
export function previewPagesOf(row: {
  preview_first_page: number | null;
  preview_last_page: number | null;
}): PreviewPages | null {
  return row.preview_first_page === null || row.preview_last_page === null
    ? null
    : { firstPage: row.preview_first_page, lastPage: row.preview_last_page };
}

/** How the form shows stored pages: "5" for the first five, "3-7" for a range. */
export function previewPagesText(pages: PreviewPages | null): string {
  if (!pages) return '';
  return pages.firstPage === 1 ? String(pages.lastPage) : `${pages.firstPage}-${pages.lastPage}`;
}

/** Left out (an older client) is no preview; anything else must read as pages. */
export const PreviewPagesField = z
  .string()
  .catch('')
  .transform((text, context) => {
    const pages = parsePreviewPages(text);
    if (pages !== 'invalid') return pages;
    context.addIssue({ code: 'custom', message: 'admin.courses.errors.previewPagesInvalid' });
    return z.NEVER;
  });
