import { importView } from '../../../../../functions/imports/admin.ts';
import { runImport } from '../../../../../functions/imports/grant.ts';
import { failureResponse, readJson, resultResponse } from '../../../../lib/http.ts';
import { notFound } from '../../../../lib/result.ts';
import { isUuid } from '../../../../lib/uuid.ts';
import { ImportRequestSchema } from '../../../../lib/admin/import.schema.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { clientIp } from '../../../../server/client-ip.ts';

export const prerender = false;

/** An uploaded export: its dry run, and what its import did once imported. */
export const GET = adminEndpoint(async ({ params }) => {
  if (!isUuid(params.id)) return failureResponse(notFound);
  return resultResponse(await importView(params.id), (view) => ({ import: view }));
});

/** Imports it with the seller's mapping (`courses`: a course id or '' per product, in the dry run's order). */
export const POST = adminEndpoint(async ({ params, request, clientAddress }) => {
  if (!isUuid(params.id)) return failureResponse(notFound);
  const read = await readJson(request, ImportRequestSchema);
  if ('response' in read) return read.response;
  return resultResponse(await runImport(params.id, read.data, { clientIp: clientIp(request, clientAddress) }), (view) => ({
    import: view,
  }));
});
