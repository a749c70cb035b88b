import { db } from '../../../../../functions/db/database.ts';
import { resendRefusedMail } from '../../../../../functions/mail/outbox.ts';
import { adminEndpoint } from '../../../../server/admin-endpoint.ts';
import { noStoreJson } from '../../../../lib/http.ts';

export const prerender = false;

/** Every refused mail goes out at the worker's next round (the overview's "Send now"); no body. */
export const POST = adminEndpoint(async () => {
  const resent = await resendRefusedMail(db());
  return noStoreJson({ resent });
});
