import type { APIRoute } from 'astro';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import CourseGrid from '../../../components/courses/CourseGrid.tsx';
import { listCoursesByIds } from '../../../../functions/catalogue/catalogue.ts';
import { displayCurrency } from '../../../../functions/shop/currencies.ts';
import { getT } from '../../../i18n/i18n.ts';
import { asLanguage } from '../../../i18n/languages.ts';
import { wishlistIdsOf } from '../../../lib/wishlist.ts';

export const prerender = false;

/**
 * The wishlist page's cards as HTML, rendered by the same components as every other course card
 * (the browser knows only ids: a guest's list lives there). Active courses only, in the order asked.
 */
export const GET: APIRoute = async ({ url }) => {
  const lang = asLanguage(url.searchParams.get('lang'));
  const [courses, display] = await Promise.all([
    listCoursesByIds(wishlistIdsOf(url.searchParams.get('ids')), lang),
    displayCurrency(lang),
  ]);
  const t = getT(lang);
  const html = renderToStaticMarkup(
    createElement(CourseGrid, {
      courses,
      lang,
      display,
      after: (course) =>
        createElement(
          'button',
          {
            type: 'button',
            'data-wishlist-remove': course.id,
            'aria-label': `${t('wishlist.remove')}: ${course.title}`,
            className: 'rounded-lg border border-gray-300 px-4 py-2 text-sm font-medium hover:bg-gray-50',
          },
          t('wishlist.remove'),
        ),
    }),
  );
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
};
