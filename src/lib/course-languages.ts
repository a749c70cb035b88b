/**
 * The languages a course can be written in (the catalogue filters by them). Not the interface
 * languages (src/i18n/languages.ts): a shop in English and Turkish may sell a course in French.
 * The database's CHECK constraints list the same codes (tests/integration/languages.test.ts).
 */
export const COURSE_LANGUAGES = ['en', 'tr', 'es', 'fr'] as const;
export type CourseLanguage = (typeof COURSE_LANGUAGES)[number];

export function isCourseLanguage(value: unknown): value is CourseLanguage {
  return typeof value === 'string' && (COURSE_LANGUAGES as readonly string[]).includes(value);
}
