import { Writable } from 'node:stream';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEnv } from './env.ts';
import { createLog, serializeError } from './log.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: createLog(stream), lines };
}

describe('logged errors', () => {
  it('keep the message, code, a short stack and the cause, never the objects hanging off the error', () => {
    const client = new pg.Client({ connectionString: 'postgres://shop:s3cret-password@127.0.0.1:1/shop' });
    const error = Object.assign(new Error('Connection terminated unexpectedly', { cause: new Error('socket hang up') }), {
      code: '57P01',
      client,
    });
    const { log, lines } = capture();
    log.warn({ err: error }, 'idle database connection lost');

    const line = lines.join('');
    const logged = JSON.parse(line) as { err: Record<string, unknown> };
    expect(Object.keys(logged.err).sort()).toEqual(['cause', 'code', 'message', 'stack', 'type']);
    expect(logged.err).toMatchObject({ type: 'Error', message: 'Connection terminated unexpectedly', code: '57P01' });
    expect(logged.err.cause).toMatchObject({ message: 'socket hang up' });
    expect(String(logged.err.stack).split('\n').length).toBeLessThanOrEqual(9);
    expect(line).not.toContain('s3cret-password');
    expect(line.length).toBeLessThan(3_000);
  });

  it('say what was thrown when it is not an Error, and stop at a cause that points to itself', () => {
    expect(serializeError('plain text')).toEqual({ type: 'string', message: 'plain text' });
    const loop = new Error('loop');
    loop.cause = loop;
    expect(JSON.stringify(serializeError(loop)).match(/"message":"loop"/g)).toHaveLength(4);
  });
});

describe('the log level', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('comes from LOG_LEVEL, by default warn under tests', () => {
    vi.stubEnv('LOG_LEVEL', 'debug');
    expect(capture().log.level).toBe('debug');
    vi.stubEnv('LOG_LEVEL', '');
    expect(capture().log.level).toBe('warn');
  });

  it('never stops the logger, however bad the environment: the start-up check names the bad value', () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('BETTER_AUTH_SECRET', '');
    vi.stubEnv('LOG_LEVEL', 'verbose');
    expect(capture().log.level).toBe('info');
    expect(() => readEnv()).toThrow(/LOG_LEVEL/);
  });
});
