import type { APIRoute } from 'astro';
import { DEV_CLOCK_MAX_DAYS, moveDevClock } from '../../../../functions/dev-clock.ts';
import { devToolsEnabled } from '../../../../functions/dev-tools.ts';
import { errorResponse, noStoreJson, readJson } from '../../../lib/http.ts';
import { z } from '../../../lib/zod.ts';

export const prerender = false;

const ClockSchema = z.object({ days: z.number('errors.badRequest').int().min(0).max(DEV_CLOCK_MAX_DAYS) });

/** A developer tool: moves the clock scheduled deliveries go by (functions/dev-clock.ts) `days` ahead. */
export const POST: APIRoute = async ({ request }) => {
  if (!devToolsEnabled()) return errorResponse(404, 'not_found', 'errors.notFound');
  const body = await readJson(request, ClockSchema);
  if ('response' in body) return body.response;
  moveDevClock(body.data.days);
  return noStoreJson({ days: body.data.days });
};
