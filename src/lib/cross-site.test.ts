import { describe, expect, it } from 'vitest';
import { isCrossSiteWrite } from './cross-site.ts';

const url = new URL('https://shop.example/api/checkout');
const request = (method: string, headers: Record<string, string>) => new Request(url, { method, headers });

describe('isCrossSiteWrite', () => {
  it('refuses writes from another origin, whatever the content type', () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json',
    ]) {
      expect(isCrossSiteWrite(request('POST', { origin: 'https://evil.example', 'content-type': type }), url)).toBe(true);
    }
    expect(isCrossSiteWrite(request('DELETE', { origin: 'null' }), url)).toBe(true);
    expect(isCrossSiteWrite(request('POST', { 'sec-fetch-site': 'cross-site' }), url)).toBe(true);
    expect(isCrossSiteWrite(request('PUT', { 'sec-fetch-site': 'same-site' }), url)).toBe(true);
  });
  it('lets our own pages, reads and the signed Stripe webhook through', () => {
    expect(isCrossSiteWrite(request('POST', { origin: 'https://shop.example' }), url)).toBe(false);
    const behindProxy = new URL('http://10.0.0.5:4321/api/checkout');
    expect(
      isCrossSiteWrite(request('POST', { origin: 'https://shop.example' }), behindProxy, [
        behindProxy.origin,
        'https://shop.example',
      ]),
    ).toBe(false);
    expect(isCrossSiteWrite(request('POST', { 'sec-fetch-site': 'same-origin' }), url)).toBe(false);
    expect(isCrossSiteWrite(request('GET', { origin: 'https://evil.example' }), url)).toBe(false);
    const webhook = new URL('https://shop.example/api/stripe/webhook');
    expect(
      isCrossSiteWrite(new Request(webhook, { method: 'POST', headers: { origin: 'https://stripe.example' } }), webhook),
    ).toBe(false);
  });
});
