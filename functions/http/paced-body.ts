import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * The Node response each request is being answered on (set by http-server.ts around Astro's handler).
 * Kept on the global object: the server (functions/cli/start.ts) and the routes of the built bundle each
 * load their own copy of this module, and both must see the one store.
 */
const STORE = Symbol.for('microcourses.responses');
const shared = globalThis as { [STORE]?: AsyncLocalStorage<ServerResponse> };
const responses = (shared[STORE] ??= new AsyncLocalStorage<ServerResponse>());

export function withResponse<T>(res: ServerResponse, answer: () => T): T {
  return responses.run(res, answer);
}

/**
 * A file's bytes as a response body that goes only as fast as the client reads. Astro writes a
 * body's chunks as fast as they come and never waits for the socket to drain, so one slow client on a
 * 45 MB course would hold the whole file in the server's memory, and fifty would hold gigabytes. Each
 * next chunk is read only once the socket has taken the last one. A source that fails midway cuts the
 * connection: the client sees a download that did not complete, never one that did with wrong bytes.
 */
export function pacedBody(source: Readable): ReadableStream<Uint8Array> {
  const res = responses.getStore();
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (res?.writableNeedDrain && !res.destroyed) await drainedOrClosed(res);
        let next: IteratorResult<Buffer>;
        try {
          next = await chunks.next();
        } catch (error) {
          // Cut first: Astro would write its error text into the file's bytes, and a browser that
          // resumes the download would keep them.
          res?.destroy();
          throw error;
        }
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
      cancel() {
        source.destroy();
      },
    },
    // Nothing read ahead: the socket's own buffer is the only one.
    { highWaterMark: 0 },
  );
}

/** Resolves when the socket has taken what was written, or has gone; leaves no listener behind. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
