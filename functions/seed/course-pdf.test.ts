import { describe, expect, it } from 'vitest';
import { readPdf } from '../../tests/support/pdf-reader.ts';
import { renderCoursePdf } from './course-pdf.ts';
import { loadDemoCatalogue } from './demo-catalogue.ts';

describe('renderCoursePdf', () => {
  it('puts the footer on every page and makes one page per lesson after the cover, nothing more', async () => {
    const { courses } = await loadDemoCatalogue();
    // A Turkish one: its footer's label and title are Turkish too.
    for (const course of [courses.find((demo) => demo.language === 'tr')!]) {
      const { pages } = await readPdf(await renderCoursePdf(course));
      expect(pages, course.title).toHaveLength(course.lessons.length + 1);
      const footer = course.language === 'tr' ? 'Mikro kurs' : 'Micro-course';
      pages.forEach((page, index) =>
        expect(page.text, `${course.title}, page ${index + 1}`).toContain(
          `${footer} · ${course.title} · ${index + 1}/${pages.length}`,
        ),
      );
    }
  });
});
