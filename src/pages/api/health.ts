import type { APIRoute } from 'astro';
import { checkHealth } from '../../../functions/health/health.ts';
import { shopFingerprint } from '../../../functions/ops/doctor.ts';

export const prerender = false;

export const GET: APIRoute = async () => {
  const health = await checkHealth();
  return Response.json(
    { ...health, shop: shopFingerprint() },
    {
      status: health.status === 'ok' ? 200 : 503,
      headers: { 'Cache-Control': 'no-store' },
    },
  );
};
