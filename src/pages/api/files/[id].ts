import type { APIContext, APIRoute } from 'astro';
import {
  countDownload,
  describeDownload,
  isValidFileSignature,
  openDownload,
} from '../../../../functions/downloads/downloads.ts';
import { downloadProblemPage } from '../../../server/download-problem.ts';
import { fileHeadResponse, fileResponse } from '../../../server/file-response.ts';

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
  const answer = await fileResponse(context.request, download, () => countDownload(purchaseId));
  return answer ?? downloadProblemPage(context, 'revoked');
};

/** What a download would be, without stamping it or counting it (a download manager's first look). */
export const HEAD: APIRoute = async (context) => {
  const purchaseId = validPurchaseId(context);
  if (!purchaseId) return downloadProblemPage(context, 'expired');
  const download = await describeDownload(purchaseId);
  if (!download) return downloadProblemPage(context, 'revoked');
  return fileHeadResponse(download);
};

function validPurchaseId({ params, url }: Pick<APIContext, 'params' | 'url'>): string | undefined {
  const purchaseId = params.id ?? '';
  const expires = Number(url.searchParams.get('expires'));
  return isValidFileSignature(purchaseId, expires, url.searchParams.get('signature') ?? '') ? purchaseId : undefined;
}
