import { z } from '../zod.ts';

export const MAX_SEARCH_TEXT_LENGTH = 200;

/** An admin search box's text: control characters (NUL included, which PostgreSQL refuses in text) never reach a query. */
export const SearchText = z.string().transform((value) =>
  value
    .replace(/\p{Cc}/gu, ' ')
    .trim()
    .slice(0, MAX_SEARCH_TEXT_LENGTH),
);
