import type { APIContext, APIRoute } from 'astro';
import {
  attachmentHeader,
  countDownload,
  describeDownload,
  downloadLocation,
  isValidFileSignature,
  openDownload,
} from '../../../../functions/downloads/downloads.ts';
import { pacedBody } from '../../../../functions/http/paced-body.ts';
import { chooseRange, partialHeaders, unsatisfiableHeaders } from '../../../../functions/http/byte-range.ts';
import { downloadProblemPage } from '../../../server/download-problem.ts';
import { NO_STORE } from '../../../lib/http.ts';

export const prerender = false;

/**
 * Serves a course PDF for a valid, unexpired signed URL, from its first byte (counted as a download)
 * or from where an interrupted download stopped (Range, not counted again): with object storage, a
 * redirect to a presigned URL (the browser resends its Range there); on the local disk, streamed.
 */
export const GET: APIRoute = async (context) => {
  const purchaseId = validPurchaseId(context);
  if (!purchaseId) return downloadProblemPage(context, 'expired');
  const download = await openDownload(purchaseId);
  if (!download) return downloadProblemPage(context, 'revoked');
  const { file, etag } = download;
  const choice = chooseRange(context.request.headers, file.size, etag);
  const headers = fileHeaders(download.filename, etag);
  if ('unsatisfiable' in choice)
    return new Response(null, { status: 416, headers: { ...headers, ...unsatisfiableHeaders(file.size) } });
  const range = choice.whole ? undefined : choice.range;
  if ((!range || range.start === 0) && !(await countDownload(purchaseId))) return downloadProblemPage(context, 'revoked');
  const location = await downloadLocation(download);
  if (location) return new Response(null, { status: 302, headers: { Location: location, ...NO_STORE } });
  return new Response(pacedBody(file.stream(range)), {
    status: range ? 206 : 200,
    headers: { ...headers, ...(range ? partialHeaders(range, file.size) : { 'Content-Length': String(file.size) }) },
  });
};

/** What a download would be, without stamping it or counting it (a download manager's first look). */
export const HEAD: APIRoute = async (context) => {
  const purchaseId = validPurchaseId(context);
  if (!purchaseId) return downloadProblemPage(context, 'expired');
  const download = await describeDownload(purchaseId);
  if (!download) return downloadProblemPage(context, 'revoked');
  const headers = fileHeaders(download.filename, download.etag);
  return new Response(null, {
    headers: download.size === undefined ? headers : { ...headers, 'Content-Length': String(download.size) },
  });
};

function validPurchaseId({ params, url }: Pick<APIContext, 'params' | 'url'>): string | undefined {
  const purchaseId = params.id ?? '';
  const expires = Number(url.searchParams.get('expires'));
  return isValidFileSignature(purchaseId, expires, url.searchParams.get('signature') ?? '') ? purchaseId : undefined;
}

function fileHeaders(filename: string, etag: string): Record<string, string> {
  return {
    'Content-Type': 'application/pdf',
    'Content-Disposition': attachmentHeader(filename),
    ...NO_STORE,
    'X-Content-Type-Options': 'nosniff',
    'Accept-Ranges': 'bytes',
    ETag: etag,
  };
}
