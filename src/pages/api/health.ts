import type { APIRoute } from 'astro';
import { checkHealth } from '../../../functions/health/health.ts';
import { shopFingerprint } from '../../../functions/ops/doctor.ts';
import { noStoreJson } from '../../lib/http.ts';

export const prerender = false;

export const GET: APIRoute = async () => {
  const health = await checkHealth();
  return noStoreJson({ ...health, shop: shopFingerprint() }, health.status === 'ok' ? 200 : 503);
};
