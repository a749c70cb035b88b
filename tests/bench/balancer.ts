import http from 'node:http';
import { findFreePort } from '../../functions/db/embedded.ts';

/** Methods a proxy may send again to another instance after the first failed mid-way (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How long an instance that failed is left out before it is tried again (nginx's `fail_timeout`). */
const FAIL_TIMEOUT_MS = 5000;

export interface BalancerStats {
  /** Requests sent again to another instance after one failed. */
  retried: number;
  /** Times an instance was left out after a failure. */
  markedDown: number;
  /** Requests answered 502: a non-idempotent one that reached an instance that died before answering. */
  failed: number;
}

export interface Balancer {
  url: string;
  setUpstreams(urls: string[]): void;
  stats: BalancerStats;
  stop(): Promise<void>;
}

interface Upstream {
  url: URL;
  downUntil: number;
}

/**
 * The bench's load balancer (nginx is not installed everywhere the bench runs), on node:http, doing
 * what nginx's `upstream` with `proxy_next_upstream error` does: round robin; an instance that refuses
 * or drops a connection is left out for FAIL_TIMEOUT_MS; a request that never reached it (connection
 * refused) goes to the next instance whatever its method; one that did is sent again only when
 * idempotent, else answered 502. Bodies are read whole first (the bench sends small JSON), so they can
 * be sent again. The buyers' own X-Forwarded-For is passed on as it is: it stands for the addresses a
 * real balancer sees, one per buyer (the shop runs with TRUST_PROXY=true).
 */
export async function startBalancer(): Promise<Balancer> {
  let upstreams: Upstream[] = [];
  let turn = 0;
  const stats: BalancerStats = { retried: 0, markedDown: 0, failed: 0 };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const pick = (tried: Set<Upstream>): Upstream | undefined => {
    const untried = upstreams.filter((upstream) => !tried.has(upstream));
    const live = untried.filter((upstream) => upstream.downUntil <= Date.now());
    const from = live.length > 0 ? live : untried;
    return from.length > 0 ? from[turn++ % from.length] : undefined;
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = Buffer.concat((await req.toArray()) as Buffer[]);
      const tried = new Set<Upstream>();
      for (let upstream = pick(tried); upstream; upstream = pick(tried)) {
        tried.add(upstream);
        const outcome = await forward(agent, upstream.url, req, body, res);
        if (outcome === 'answered') return;
        upstream.downUntil = Date.now() + FAIL_TIMEOUT_MS;
        stats.markedDown++;
        if (outcome === 'sent' && !IDEMPOTENT.has(req.method ?? 'GET')) break;
        stats.retried++;
      }
      stats.failed++;
      res.writeHead(502, { 'content-type': 'text/plain' }).end('No instance answered');
    })();
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    setUpstreams: (urls) => (upstreams = urls.map((url) => ({ url: new URL(url), downUntil: 0 }))),
    stats,
    stop: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sends one request to `target` and streams its answer back. 'refused': the request never reached the
 * instance; 'sent': it did, and no answer came.
 */
function forward(
  agent: http.Agent,
  target: URL,
  req: http.IncomingMessage,
  body: Buffer,
  res: http.ServerResponse,
): Promise<'answered' | 'refused' | 'sent'> {
  return new Promise((resolve) => {
    const { connection: _connection, 'keep-alive': _keepAlive, ...headers } = req.headers;
    const proxied = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...headers, 'content-length': body.length },
      },
      (response) => {
        resolve('answered');
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
        // An instance dying mid-answer: the client sees the connection end, as behind nginx.
        response.on('error', () => res.destroy());
        response.on('aborted', () => res.destroy());
      },
    );
    proxied.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'sent'));
    proxied.end(body);
  });
}
