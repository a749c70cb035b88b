import { consentRecord } from '../../../../../../functions/audience/record.ts';
import { adminEndpoint } from '../../../../../server/admin-endpoint.ts';
import { resultResponse } from '../../../../../lib/http.ts';

export const prerender = false;

/** One subscriber's consent record (every grant and withdrawal, as kept), as a JSON download. */
export const GET = adminEndpoint(async ({ params }) => {
  const response = resultResponse(await consentRecord(params.id ?? ''), (record) => record);
  if (response.ok) response.headers.set('Content-Disposition', `attachment; filename="consent-${params.id}.json"`);
  return response;
});
