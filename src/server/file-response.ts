import { attachmentHeader, downloadLocation, type Download } from '../../functions/downloads/downloads.ts';
import { pacedBody } from '../../functions/http/paced-body.ts';
import { chooseRange, partialHeaders, unsatisfiableHeaders } from '../../functions/http/byte-range.ts';
import { NO_STORE } from '../lib/http.ts';

/**
 * A stored PDF as a download (a buyer's file, a course's free preview): the whole file or the one
 * Range asked for (416 past its end), saved under its name; with object storage a redirect to a
 * presigned URL (the browser resends its Range there), on the local disk streamed.
 * `startsDownload` runs for a request from the first byte (a resumed one is the same download);
 * false refuses it, and the answer is undefined.
 */
export async function fileResponse(
  request: Request,
  download: Download,
  startsDownload: () => Promise<boolean> = () => Promise.resolve(true),
): Promise<Response | undefined> {
  const { file, etag } = download;
  const choice = chooseRange(request.headers, file.size, etag);
  const headers = fileHeaders(download.filename, etag);
  if ('unsatisfiable' in choice)
    return new Response(null, { status: 416, headers: { ...headers, ...unsatisfiableHeaders(file.size) } });
  const range = choice.whole ? undefined : choice.range;
  if ((!range || range.start === 0) && !(await startsDownload())) return undefined;
  const location = await downloadLocation(download);
  if (location) return new Response(null, { status: 302, headers: { Location: location, ...NO_STORE } });
  return new Response(pacedBody(file.stream(range)), {
    status: range ? 206 : 200,
    headers: { ...headers, ...(range ? partialHeaders(range, file.size) : { 'Content-Length': String(file.size) }) },
  });
}

/** What a download would be, for a HEAD request: its size only when the file exists already. */
export function fileHeadResponse(described: { filename: string; etag: string; size: number | undefined }): Response {
  const headers = fileHeaders(described.filename, described.etag);
  return new Response(null, {
    headers: described.size === undefined ? headers : { ...headers, 'Content-Length': String(described.size) },
  });
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
