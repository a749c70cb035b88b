import { getCourseOffer, saveCourseOffer } from '../../../../../../functions/offers/admin.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';
import { CourseOfferFormSchema } from '../../../../../lib/admin/course-offer.schema.ts';
import { readJson, resultResponse } from '../../../../../lib/http.ts';

export const prerender = false;

/** A course's next-course offer: what is set, what "automatic" picks now, and the courses to choose from. */
export const GET = adminEndpoint(async ({ params }) =>
  resultResponse(await getCourseOffer(params.id ?? ''), (offer) => ({ offer })),
);

/** Sets it: `{ offeredCourseId, discountPercent, discountHours }` as the form's strings (all empty: automatic, no discount). */
export const PUT = adminEndpoint(async ({ params, request }) => {
  const body = await readJson(request, CourseOfferFormSchema);
  if ('response' in body) return body.response;
  return resultResponse(await saveCourseOffer(params.id ?? '', body.data), (offer) => ({ offer }));
});
