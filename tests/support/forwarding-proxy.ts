import http from 'node:http';
import { findFreePort } from '../../functions/db/embedded.ts';

/**
 * A reverse proxy as a TLS-terminating one (nginx, a load balancer, a CDN) talks to the shop: it
 * forwards to the shop's plain-http port, appends the client's address to X-Forwarded-For and says
 * the original scheme and host in X-Forwarded-Proto / X-Forwarded-Host. (It terminates no TLS itself:
 * the headers are what the shop sees either way.)
 */
export async function startForwardingProxy(
  target: string,
  publicOrigin: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const upstream = new URL(target);
  const { host, protocol } = new URL(publicOrigin);
  const server = http.createServer((req, res) => {
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const proxied = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          host,
          'x-forwarded-for': forwardedFor,
          'x-forwarded-proto': protocol.slice(0, -1),
          'x-forwarded-host': host,
        },
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      },
    );
    proxied.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(proxied);
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
