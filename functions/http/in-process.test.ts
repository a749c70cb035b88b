import { describe, expect, it } from 'vitest';
import { inProcessRenderer } from './in-process.ts';
import { REQUEST_ID_HEADER } from '../log.ts';

describe('inProcessRenderer', () => {
  it("renders through a Node handler in memory: the request as a local anonymous visitor's, the answer whole", async () => {
    const render = inProcessRenderer(
      (req, res) => {
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.writeHead(404, { 'Content-Security-Policy': "script-src 'self'" });
        res.write('<p>');
        res.end(
          [
            req.method,
            req.url,
            req.headers.host,
            req.headers['accept-encoding'],
            req.socket.remoteAddress,
            req.headers.cookie,
          ].join(' '),
        );
      },
      () => '127.0.0.1:4321',
    );
    const response = await render('/en/courses?search=a', { 'accept-encoding': 'identity' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe("script-src 'self'");
    expect(await response.text()).toBe('<p>GET /en/courses?search=a 127.0.0.1:4321 identity 127.0.0.1 ');
  });

  it('gives each render a request id of its own, and fails when the handler passes it on', async () => {
    const ids: string[] = [];
    const render = inProcessRenderer(
      (req, res, next) => {
        ids.push(String(req.headers[REQUEST_ID_HEADER]));
        if (req.url === '/none') next!();
        else res.end('ok');
      },
      () => 'localhost',
    );
    expect(await (await render('/a', {})).text()).toBe('ok');
    await expect(render('/none', {})).rejects.toThrow('Nothing rendered /none');
    expect(ids[0]).toMatch(/^[0-9A-F]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
