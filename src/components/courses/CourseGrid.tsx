import { I18nIsland } from '../islands/I18nIsland.tsx';
import { CourseCard } from './CourseCard.tsx';
import type { CourseSummaryView } from '../../lib/course-view.ts';
import type { Language } from '../../i18n/languages.ts';

/** Course cards rendered on the server only (no client directive): no JavaScript reaches the page. */
export default function CourseGrid({ courses, lang }: { courses: CourseSummaryView[]; lang: Language }) {
  return (
    <I18nIsland lang={lang}>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {courses.map((course) => (
          <li key={course.id} className="flex">
            <CourseCard course={course} lang={lang} />
          </li>
        ))}
      </ul>
    </I18nIsland>
  );
}
