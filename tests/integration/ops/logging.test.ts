import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'info' });
});
afterAll(() => server.stop());

describe('server logs', () => {
  it('name a failed request by the id its crash page shows, with the stack kept on the server', async () => {
    const response = await server.fetch('/en/dev/crash');
    const html = await response.text();
    const requestId = response.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9A-F]{12}$/);
    expect(html).toContain(`<span data-testid="error-id">${requestId}</span>`);
    expect(html).not.toMatch(/\bat .+\.(mjs|ts):\d+/);

    await expect.poll(() => server.output!().includes(requestId)).toBe(true);
    const line = server.output!()
      .split('\n')
      .find((text) => text.includes(requestId))!;
    const entry = JSON.parse(line) as { level: string; reqId: string; path: string; msg: string; err: { stack: string } };
    expect(entry).toMatchObject({ level: 'error', reqId: requestId, path: '/en/dev/crash', msg: 'request failed' });
    expect(entry.err.stack).toContain('Deliberate crash');
  });

  it('give every answer its own request id, whatever the client sends', async () => {
    const forged = await server.fetch('/api/health', { headers: { 'x-shop-request-id': 'FORGED', 'x-request-id': 'FORGED' } });
    const other = await server.fetch('/api/health');
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9A-F]{12}$/);
    expect(other.headers.get('x-request-id')).not.toBe(forged.headers.get('x-request-id'));
  });
});
