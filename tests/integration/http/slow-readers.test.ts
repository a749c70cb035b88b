import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '../../../functions/storage/storage.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * A client that reads slowly (a phone on a poor line) is served as fast as it reads: the server does
 * not pull a large file into memory ahead of the socket. Every file route streams through one paced
 * body (functions/http/paced-body.ts); the public media route stands for the paid download route here.
 */
const MB = 1024 * 1024;
const FILE_BYTES = 64 * MB;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid!}/status`, 'utf8'))![1]) * 1024;

describe('a client that does not read', () => {
  it('holds the server to what its socket takes, not the whole file, and still gets every byte', async () => {
    const key = `slow/${randomUUID()}.png`;
    await putFile('public', key, randomBytes(FILE_BYTES));
    const before = rss();
    let received = 0;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${server.url}/media/${key}`, resolve).on('error', reject),
    );
    expect(response.statusCode).toBe(200);
    response.pause();
    // Long enough for a server that ignores the socket to have read the whole file from disk.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const held = rss() - before;
    response.on('data', (chunk: Buffer) => (received += chunk.length));
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    expect(received).toBe(FILE_BYTES);
    expect(held, `server memory while the client did not read: +${(held / MB).toFixed(1)} MB`).toBeLessThan(24 * MB);
  });
});
