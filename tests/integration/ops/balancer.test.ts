import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findFreePort } from '../../../functions/db/embedded.ts';
import { startBalancer, type Balancer } from '../../bench/balancer.ts';

/** An instance that answers with its name, or (`dies`) drops every request it receives unanswered. */
async function instance(name: string, received: string[], dies = false): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    received.push(`${name} ${req.method}`);
    if (dies) req.socket.destroy();
    else res.end(name);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe("the multi-instance bench's load balancer (tests/bench/instances.ts)", () => {
  let balancer: Balancer;
  const closers: (() => void)[] = [];
  afterEach(async () => {
    await balancer.stop();
    for (const close of closers.splice(0)) close();
  });

  it('sends a read on to a live instance, and a POST only when the instance never received it', async () => {
    const received: string[] = [];
    const dying = await instance('dying', received, true);
    const live = await instance('live', received);
    closers.push(
      () => dying.close(),
      () => live.close(),
    );
    const gone = `http://127.0.0.1:${await findFreePort()}`;
    balancer = await startBalancer();

    balancer.setUpstreams([dying.url, live.url]);
    const read = await fetch(`${balancer.url}/en/courses`);
    expect([read.status, await read.text()]).toEqual([200, 'live']);

    // The dying instance is left out for a while: the next POST goes to the live one.
    const post = await fetch(`${balancer.url}/api/checkout`, { method: 'POST', body: '{}' });
    expect([post.status, await post.text()]).toEqual([200, 'live']);

    // A POST the dying instance received is not sent again: the client is told, as nginx tells it.
    balancer.setUpstreams([dying.url]);
    const lost = await fetch(`${balancer.url}/api/checkout`, { method: 'POST', body: '{}' });
    expect(lost.status).toBe(502);
    expect(received.filter((line) => line.endsWith('POST'))).toEqual(['live POST', 'dying POST']);

    // One that never reached an instance (connection refused) goes to the next, whatever its method.
    balancer.setUpstreams([gone, live.url]);
    const refused = await fetch(`${balancer.url}/api/checkout`, { method: 'POST', body: '{}' });
    expect([refused.status, await refused.text()]).toEqual([200, 'live']);
    expect(balancer.stats).toMatchObject({ failed: 1 });
  });
});
