import type { APIRoute } from 'astro';
import { describePreview, openPreview } from '../../../../../functions/courses/course-previews.ts';
import { fileHeadResponse, fileResponse } from '../../../../server/file-response.ts';
import { errorResponse } from '../../../../lib/http.ts';

export const prerender = false;

/** A course's free preview PDF, for anyone (no account): made on the first request after the file or pages changed. */
export const GET: APIRoute = async ({ params, request }) => {
  const preview = await openPreview(params.id ?? '');
  if (!preview) return noPreview();
  return (await fileResponse(request, preview)) ?? noPreview();
};

export const HEAD: APIRoute = async ({ params }) => {
  const preview = await describePreview(params.id ?? '');
  return preview ? fileHeadResponse(preview) : noPreview();
};

const noPreview = () => errorResponse(404, 'not_found', 'errors.notFound');
