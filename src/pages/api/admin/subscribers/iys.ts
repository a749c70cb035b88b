import { IYS_COLUMNS, iysConsentRows } from '../../../../../functions/audience/iys.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { csvDownload } from '../../../../server/csv-download.ts';

export const prerender = false;

/** Every confirmed consent and every withdrawal, one row each, for İYS's bulk consent upload. */
export const GET = adminEndpoint(async () =>
  csvDownload(`iys-consents-${new Date().toISOString().slice(0, 10)}.csv`, [[...IYS_COLUMNS], ...(await iysConsentRows())]),
);
