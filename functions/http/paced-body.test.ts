import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pacedBody, withResponse } from './paced-body.ts';

describe('a paced file body', () => {
  it('passes the bytes on, and cuts the connection when its source fails midway', async () => {
    const response = Object.assign(new EventEmitter(), {
      writableNeedDrain: false,
      destroyed: false,
      destroy() {
        this.destroyed = true;
      },
    });
    const failing = Readable.from(
      (function* () {
        yield Buffer.from('%PDF-1.7 first part');
        throw new Error('the disk went away');
      })(),
    );
    const body = withResponse(response as unknown as ServerResponse, () => pacedBody(failing));
    const reader = body.getReader();
    expect(Buffer.from((await reader.read()).value!).toString()).toBe('%PDF-1.7 first part');
    await expect(reader.read()).rejects.toThrow('the disk went away');
    expect(response.destroyed).toBe(true);
  });
});
