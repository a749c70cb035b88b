import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A browser-like world for the logger: window events, localStorage, location, navigator, fetch. */
function fakeBrowser(stored: Record<string, string> = {}) {
  const storage = new Map(Object.entries(stored));
  const localStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  };
  const window = Object.assign(new EventTarget(), { localStorage });
  const fetch = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(new Response(null, { status: 204 })));
  vi.stubGlobal('window', window);
  vi.stubGlobal('localStorage', localStorage);
  vi.stubGlobal('navigator', { userAgent: 'TestBrowser/1.0', onLine: true });
  vi.stubGlobal('location', { href: 'https://shop.example/en/courses?x=1' });
  vi.stubGlobal('fetch', fetch);
  return { storage, window, fetch };
}

async function freshLogger() {
  vi.resetModules();
  return import('./logger.ts');
}

beforeEach(() => {
  for (const method of ['error', 'warn', 'info', 'debug'] as const) vi.spyOn(console, method).mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('client logger', () => {
  it('records timestamp, level, message, data, user agent, url, user id and a stack for errors', async () => {
    fakeBrowser();
    const { logger, getLogs, setLogUser } = await freshLogger();
    setLogUser('user-1');
    logger.info('opened', { page: 2 });
    logger.error('failed', new TypeError('boom'));
    const [info, error] = getLogs();
    expect(info).toMatchObject({
      level: 'info',
      message: 'opened',
      data: { page: 2 },
      userAgent: 'TestBrowser/1.0',
      url: 'https://shop.example/en/courses?x=1',
      userId: 'user-1',
    });
    expect(Date.parse(info!.timestamp)).not.toBeNaN();
    expect(info!.stack).toBeUndefined();
    expect(error).toMatchObject({ level: 'error', message: 'failed', data: { name: 'TypeError', message: 'boom' } });
    expect(error!.stack).toContain('TypeError: boom');
  });

  it('keeps at most 1,000 entries in memory and the last 100 in localStorage', async () => {
    const { storage } = fakeBrowser();
    const { logger, getLogs, LOGS_STORAGE_KEY } = await freshLogger();
    for (let index = 0; index < 1005; index++) logger.info(`entry ${index}`);
    expect(getLogs()).toHaveLength(1000);
    expect(getLogs()[0]!.message).toBe('entry 5');
    const persisted = JSON.parse(storage.get(LOGS_STORAGE_KEY)!) as { message: string }[];
    expect(persisted).toHaveLength(100);
    expect(persisted[0]!.message).toBe('entry 905');
    expect(persisted.at(-1)!.message).toBe('entry 1004');

    // The next page starts from what was persisted.
    fakeBrowser(Object.fromEntries(storage));
    const next = await freshLogger();
    expect(next.getLogs()).toHaveLength(100);
    next.clearLogs();
    expect(next.getLogs()).toHaveLength(0);
  });

  it('drops debug entries unless debug logging is switched on', async () => {
    fakeBrowser();
    const { logger, getLogs, setDebugEnabled, isDebugEnabled } = await freshLogger();
    expect(isDebugEnabled()).toBe(false);
    logger.debug('hidden');
    expect(getLogs()).toHaveLength(0);
    setDebugEnabled(true);
    logger.debug('shown');
    expect(getLogs().map((entry) => entry.message)).toEqual(['shown']);
  });

  it('reports errors (only errors) to the server, at most 10 a minute, without the claimed user id', async () => {
    const { fetch } = fakeBrowser();
    const { logger, setLogUser } = await freshLogger();
    setLogUser('user-2');
    logger.warn('not reported');
    logger.error('reported', { step: 'pay' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/client-errors');
    expect(init).toMatchObject({ method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' } });
    const body = JSON.parse(init.body as string);
    expect(body).toMatchObject({
      level: 'error',
      message: 'reported',
      data: { step: 'pay' },
      url: 'https://shop.example/en/courses?x=1',
      userAgent: 'TestBrowser/1.0',
    });
    expect(body).not.toHaveProperty('userId');
    for (let index = 0; index < 20; index++) logger.error(`loop ${index}`);
    expect(fetch).toHaveBeenCalledTimes(10);
  });

  it('never fails when storage is unavailable or the report cannot be sent', async () => {
    const { fetch } = fakeBrowser();
    const blocked = new EventTarget();
    Object.defineProperty(blocked, 'localStorage', {
      get() {
        throw new Error('SecurityError');
      },
    });
    vi.stubGlobal('window', blocked);
    fetch.mockRejectedValue(new TypeError('Failed to fetch'));
    const { logger, getLogs } = await freshLogger();
    expect(() => logger.error('still logged')).not.toThrow();
    expect(getLogs()).toHaveLength(1);
  });

  it('installErrorReporting logs uncaught errors and unhandled rejections once, however often it is called', async () => {
    const { window, fetch } = fakeBrowser();
    const { installErrorReporting, getLogs } = await freshLogger();
    installErrorReporting();
    installErrorReporting();
    window.dispatchEvent(
      Object.assign(new Event('error'), {
        message: 'Uncaught ReferenceError: x is not defined',
        error: new ReferenceError('x is not defined'),
      }),
    );
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('rejected') }));
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'plain reason' }));
    expect(getLogs().map((entry) => [entry.level, entry.message])).toEqual([
      ['error', 'Uncaught ReferenceError: x is not defined'],
      ['error', 'rejected'],
      ['error', 'Unhandled promise rejection'],
    ]);
    expect(getLogs()[2]!.data).toEqual({ reason: 'plain reason' });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('keeps nothing when used during server rendering', async () => {
    const { logger, getLogs } = await freshLogger();
    logger.error('on the server');
    expect(getLogs()).toHaveLength(0);
  });
});
