import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { BenchWorld } from './bench-server.ts';

/** A guest buyer as the benches simulate one: an address of their own behind the proxy, a fresh e-mail. */
export interface Guest {
  email: string;
  address: string;
}

export function guest(n: number, prefix = 'load-buyer'): Guest {
  return {
    email: `${prefix}-${n}-${randomUUID().slice(0, 6)}@example.com`,
    address: `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`,
  };
}

/**
 * The buyers' requests, on node:http with kept-alive connections rather than fetch: the generator shares
 * the machine with the server and PostgreSQL, and fetch (undici) cost it about twice the CPU per buyer,
 * taken from the cores the server is measured on.
 */
const buyersAgent = new http.Agent({ keepAlive: true });

function post(url: string, headers: Record<string, string>, body = ''): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: buyersAgent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const empty = status === 204 || status === 304;
        resolve(new Response(empty ? null : Buffer.concat(chunks), { status }));
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The checkout form's request; answered with the payment page's address. */
export function startCheckout(baseUrl: string, courseId: string, buyer: Guest): Promise<Response> {
  const body = JSON.stringify({
    courseId,
    email: buyer.email,
    fullName: 'Load Buyer',
    language: 'en',
    acceptTerms: true,
    waiveWithdrawal: true,
  });
  return post(
    `${baseUrl}/api/checkout`,
    { 'content-type': 'application/json', origin: baseUrl, 'x-forwarded-for': buyer.address },
    body,
  );
}

/** "Pay" on the demo provider's page at `redirectUrl` (what startCheckout answered). */
export function payDemo(baseUrl: string, redirectUrl: string, buyer: Guest): Promise<Response> {
  return post(`${baseUrl}/api/checkout/demo/${redirectUrl.split('/').pop()}`, {
    origin: baseUrl,
    'x-forwarded-for': buyer.address,
  });
}

/** The newest active course sold in dollars: the one the benches' buyers buy. */
export async function paidCourseId({ database }: BenchWorld): Promise<string> {
  const course = await database
    .selectFrom('courses')
    .select('id')
    .where('price_minor', '>', 0)
    .where('currency', '=', 'USD')
    .where('is_active', '=', true)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return course.id;
}

/** One guest buyer's checkout and demo payment; ok when both answered as a buyer's browser expects. */
export async function buy(
  baseUrl: string,
  courseId: string,
  n: number,
  problems: string[],
): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  const buyer = guest(n);
  const checkout = await startCheckout(baseUrl, courseId, buyer);
  if (!checkout.ok) {
    problems.push(`checkout answered ${checkout.status}: ${(await checkout.text()).slice(0, 200)}`);
    return { ms: performance.now() - started, ok: false };
  }
  const { redirectUrl } = (await checkout.json()) as { redirectUrl: string };
  const paid = await payDemo(baseUrl, redirectUrl, buyer);
  await paid.arrayBuffer();
  if (!paid.ok) problems.push(`the demo payment answered ${paid.status}`);
  return { ms: performance.now() - started, ok: paid.ok };
}

/** A course (stamping on) whose stored original is `pdf`, stored by `put`, and `buyers` completed purchases. */
export async function courseWithBuyers(
  { database }: BenchWorld,
  put: (visibility: 'private', key: string, data: Buffer) => Promise<unknown>,
  pdf: Buffer,
  buyers: number,
): Promise<string[]> {
  const key = `courses/bench-${randomUUID()}.pdf`;
  await put('private', key, pdf);
  const course = await database
    .insertInto('courses')
    .values({
      title: `PDF bench ${key}`,
      description: 'A course for the PDF bench.',
      category: 'business',
      difficulty_level: 'beginner',
      language: 'en',
      price_minor: 0,
      currency: 'USD',
      duration_minutes: 30,
      instructor_name: 'Bench',
      instructor_bio: 'Bench',
      tags: [],
      pdf_path: key,
      stamp_pdfs: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rows = await database
    .insertInto('purchases')
    .values(
      Array.from({ length: buyers }, (_, n) => ({
        course_id: course.id,
        email: `pdf-bench-${n}-${randomUUID().slice(0, 8)}@example.com`,
        full_name: `Şule Işıklı ${n}`,
        language: n % 2 ? 'tr' : 'en',
        provider: 'free' as const,
        payment_id: `free_${randomUUID()}`,
        amount_minor: 0,
        currency: 'USD',
        status: 'completed' as const,
        completed_at: new Date(),
        download_token: randomBytes(32).toString('base64url'),
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * A buyer's download, through the e-mailed link's redirect to the signed file URL (and, from a bucket,
 * on to its presigned URL). node:http, not fetch: a first download waiting for its stamp turn may wait
 * longer than fetch's header timeout.
 */
export async function firstDownload(
  { database }: BenchWorld,
  baseUrl: string,
  purchaseId: string,
): Promise<{ status: number; bytes: number; sha256: string }> {
  const { download_token } = await database
    .selectFrom('purchases')
    .select('download_token')
    .where('id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  const link = await fetch(`${baseUrl}/api/downloads/${download_token}`, { redirect: 'manual' });
  const location = link.headers.get('location');
  if (!location) throw new Error(`The download link answered ${link.status}`);
  return fetched(new URL(location, baseUrl));
}

function fetched(url: URL, hops = 2): Promise<{ status: number; bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        const next = response.headers.location;
        if (response.statusCode === 302 && next && hops > 0) {
          response.resume();
          resolve(fetched(new URL(next, url), hops - 1));
          return;
        }
        const hash = createHash('sha256');
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          bytes += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, sha256: hash.digest('hex') }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

export function percentiles(values: number[]): { 'p50 ms': number; 'p99 ms': number; 'max ms': number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { 'p50 ms': at(0.5), 'p99 ms': at(0.99), 'max ms': Math.round(sorted.at(-1) ?? 0) };
}
