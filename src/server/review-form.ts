import { PUT as reviewRoute } from '../pages/api/account/reviews/[courseId].ts';
import { apiAnswer } from '../lib/api-client.ts';
import { ReviewSchema } from '../lib/reviews.schema.ts';
import { localizedPath, type Language } from '../i18n/languages.ts';
import { callEndpoint, checkPosted, keptValues, seeOther, type PageContext } from './form-post.ts';
import type { FormPostOutcome } from './auth-forms.ts';

/** The review form of one owned course: its name on a page that lists several (`review-<course id>`). */
export const reviewFormName = (courseId: string) => `review-${courseId}`;

/**
 * A review posted to My Courses without JavaScript (decision 34): checked by the review schema and
 * written through /api/account/reviews/<course> in-process, as the form's script writes it; then
 * My Courses again saying it was saved (`?reviewed=<course>`), or the form with its errors.
 */
export async function reviewPosted(page: PageContext, lang: Language, fields: Record<string, string>): Promise<FormPostOutcome> {
  const courseId = fields.courseId ?? '';
  const form = reviewFormName(courseId);
  const checked = checkPosted(ReviewSchema, form, fields, ['rating', 'body']);
  if ('posted' in checked) return { ...checked, status: 400 };
  const response = await callEndpoint(reviewRoute, page, `/api/account/reviews/${encodeURIComponent(courseId)}`, checked.data, {
    method: 'PUT',
    params: { courseId },
  });
  const result = await apiAnswer(response);
  if (result.ok) return seeOther(`${localizedPath(lang, '/dashboard/courses')}?reviewed=${encodeURIComponent(courseId)}`);
  const failure = Object.keys(result.fields).length > 0 ? null : result.message;
  return {
    posted: { form, values: keptValues(fields, ['rating', 'body']), errors: result.fields, failure },
    status: result.status,
  };
}
