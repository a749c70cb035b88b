import type { ReactNode } from 'react';
import { I18nIsland } from '../islands/I18nIsland.tsx';
import { allMessages } from '../../i18n/i18n.ts';
import { CourseCard } from './CourseCard.tsx';
import type { CourseSummaryView } from '../../lib/course-view.ts';
import type { Currency } from '../../lib/course-filters.ts';
import type { Rates } from '../../lib/currency.ts';
import type { Language } from '../../i18n/languages.ts';

/**
 * Course cards rendered on the server only (no client directive): no JavaScript reaches the page.
 * `after` adds something under a card (the wishlist page's "Remove").
 */
export default function CourseGrid({
  courses,
  lang,
  display,
  after,
}: {
  courses: CourseSummaryView[];
  lang: Language;
  display: { currency: Currency; rates: Rates };
  after?: (course: CourseSummaryView) => ReactNode;
}) {
  return (
    <I18nIsland messages={allMessages(lang)}>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {courses.map((course) => (
          <li key={course.id} className="flex flex-col gap-2">
            <CourseCard course={course} lang={lang} display={display} />
            {after?.(course)}
          </li>
        ))}
      </ul>
    </I18nIsland>
  );
}
