import type { APIRoute } from 'astro';
import { listCourses } from '../../../functions/catalogue/catalogue.ts';
import { parseFilters } from '../../lib/course-filters.ts';
import { asLanguage } from '../../i18n/languages.ts';

export const prerender = false;

/** The catalogue as JSON for the filters island: the same filters as the page's query string. */
export const GET: APIRoute = async ({ url }) => {
  const lang = url.searchParams.get('lang');
  const page = await listCourses(parseFilters(url.searchParams), asLanguage(lang));
  return Response.json({
    courses: page.courses.map(({ isFeatured: _featured, updatedAt: _updated, ...course }) => course),
    total: page.total,
    page: page.page,
    pageCount: page.pageCount,
  });
};
