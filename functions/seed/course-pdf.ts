import { asLanguage } from '../../src/i18n/languages.ts';
import { startPdf } from '../pdf/document.ts';
import type { DemoCourse } from './demo-catalogue.ts';

const LABELS = {
  en: { lesson: 'Lesson', minutes: 'minutes', by: 'By', contents: 'Contents', footer: 'Micro-course' },
  tr: { lesson: 'Ders', minutes: 'dakika', by: 'Eğitmen:', contents: 'İçindekiler', footer: 'Mikro kurs' },
} as const;

/** Renders a course's lessons into a real multi-page A4 PDF. */
export function renderCoursePdf(course: DemoCourse): Promise<Buffer> {
  // Demo courses in a language the shop has no labels for get English ones.
  const labels = LABELS[asLanguage(course.language)];
  const { doc, done } = startPdf({
    info: { Title: course.title, Author: course.instructorName, Subject: course.description },
    lang: course.language,
    bufferPages: true,
  });

  const [from] = course.coverColors;
  doc.rect(0, 0, doc.page.width, 220).fill(from);
  doc
    .fillColor('#FFFFFF')
    .font('bold')
    .fontSize(26)
    .text(course.title, 56, 80, { width: doc.page.width - 112 });
  doc.fillColor('#111827').font('regular').fontSize(12).moveDown(6);
  doc.text(`${labels.by} ${course.instructorName} · ${course.durationMinutes} ${labels.minutes}`, 56, 250);
  doc.moveDown().fontSize(13).text(course.description, { lineGap: 4 });
  doc.moveDown(2).font('bold').fontSize(16).text(labels.contents);
  course.lessons.forEach((lesson, index) => {
    doc
      .font('regular')
      .fontSize(12)
      .moveDown(0.4)
      .text(`${index + 1}. ${lesson.heading}`);
  });

  course.lessons.forEach((lesson, index) => {
    doc.addPage();
    doc
      .fillColor(from)
      .font('bold')
      .fontSize(11)
      .text(`${labels.lesson} ${index + 1}`.toLocaleUpperCase(course.language));
    doc.fillColor('#111827').fontSize(20).moveDown(0.3).text(lesson.heading);
    doc.font('regular').fontSize(12).moveDown();
    for (const paragraph of lesson.paragraphs) doc.text(paragraph, { lineGap: 4, align: 'left' }).moveDown();
  });

  const pages = doc.bufferedPageRange();
  for (let page = pages.start; page < pages.start + pages.count; page++) {
    doc.switchToPage(page);
    // The footer sits in the bottom margin: with the margin in force PDFKit would move it to a new page.
    const { bottom } = doc.page.margins;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(9).fillColor('#6B7280');
    doc.text(`${labels.footer} · ${course.title} · ${page + 1}/${pages.count}`, 56, doc.page.height - 40, {
      width: doc.page.width - 112,
      align: 'center',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
