import { sql, type Expression } from 'kysely';

/**
 * The title, in `language`, of the course a query has joined as `courses`: a bundle's text in that
 * language where it has one (decision 44), else the row's own (a course's only one). For receipts and
 * mails, in the order's language.
 */
export function courseTitleIn(language: Expression<string>) {
  return sql<string>`coalesce((SELECT title FROM bundle_texts WHERE bundle_texts.bundle_id = courses.id AND bundle_texts.language = ${language}), courses.title)`;
}
