import type { APIRoute } from 'astro';
import { resendGift } from '../../../../../../functions/orders/gifts.ts';
import { errorResponse, resultResponse } from '../../../../../lib/http.ts';
import { requireUser } from '../../../../../server/guards.ts';
import { GiftResendSchema } from '../../../../../lib/gift.schema.ts';

export const prerender = false;

/** The dashboard's "Send now" / "Send again" beside one of the buyer's gifts: only their own (another's is not found). */
export const POST: APIRoute = async (context) => {
  const user = await requireUser(context);
  if (user instanceof Response) return user;
  const gift = GiftResendSchema.safeParse(context.params);
  if (!gift.success) return errorResponse(404, 'not_found', 'errors.notFound');
  return resultResponse(await resendGift(user.id, gift.data.id), (sent) => sent);
};
