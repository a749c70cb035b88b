import type { APIRoute } from 'astro';
import { Readable } from 'node:stream';
import { attachmentHeader, isValidFileSignature, openDownload } from '../../../../functions/downloads/downloads.ts';
import { downloadProblemPage } from '../../../server/download-problem.ts';

export const prerender = false;

/** Streams a course PDF for a valid, unexpired signed URL; counts the download. */
export const GET: APIRoute = async (context) => {
  const { params, url } = context;
  const purchaseId = params.id ?? '';
  const expires = Number(url.searchParams.get('expires'));
  if (!isValidFileSignature(purchaseId, expires, url.searchParams.get('signature') ?? ''))
    return downloadProblemPage(context, 'expired');
  const download = await openDownload(purchaseId);
  if (!download) return downloadProblemPage(context, 'revoked');
  return new Response(Readable.toWeb(download.file.stream()) as ReadableStream, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(download.file.size),
      'Content-Disposition': attachmentHeader(download.filename),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
