import { writtenTemplate } from './written.ts';

/** A broadcast (Admin → Mail): the seller's own subject and Markdown, to part of the list. */
export const broadcast = writtenTemplate('broadcast', {
  sample: (language) =>
    language === 'tr'
      ? {
          subject: 'Yeni kurs: Acil durum fonu',
          markdown:
            '## Merhaba!\n\nYeni kursumuz **Acil Durum Fonu** yayında. Altı haftada üç aylık gideri kenara koymanın yolu.\n\n- 12 sayfa\n- Çalışma sayfalarıyla\n\n[Kursa göz atın](https://shop.example/tr/courses)',
        }
      : {
          subject: 'New course: your emergency fund',
          markdown:
            '## Hello!\n\nOur new course **Your Emergency Fund** is out: three months of costs put aside in six weeks.\n\n- 12 pages\n- With worksheets\n\n[Have a look](https://shop.example/en/courses)',
        },
});
