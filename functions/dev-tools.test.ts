import { describe, expect, it } from 'vitest';
import { devToolsRule, isLoopbackHost, isUnspecifiedHost } from './dev-tools.ts';
import { readEnv } from './env.ts';

const settings = (values: Record<string, string>) => readEnv({ BETTER_AUTH_SECRET: 'x'.repeat(32), ...values });

describe('the developer tools rule', () => {
  it.each([
    // NODE_ENV, HOST, DEV_TOOLS, PRODUCTION_CHECKS, embedded database → on?
    ['development', 'localhost', '', '', true, true],
    ['development', '127.0.0.1', '', '', true, true],
    ['development', '::1', '', '', true, true],
    ['development', '0.0.0.0', '', '', true, false],
    ['development', '192.168.1.20', '', '', true, false],
    ['development', 'localhost', '', '', false, false],
    ['development', '0.0.0.0', 'on', '', false, true],
    ['development', 'localhost', 'off', '', true, false],
    ['test', '127.0.0.1', '', '', true, false],
    ['test', '127.0.0.1', 'on', '', false, true],
    ['production', 'localhost', '', '', true, false],
    ['production', '127.0.0.1', '', 'test-harness', true, false],
    ['production', '127.0.0.1', 'on', 'test-harness', false, true],
    ['production', '127.0.0.1', 'off', 'test-harness', true, false],
  ] as const)(
    'NODE_ENV=%s HOST=%s DEV_TOOLS=%s PRODUCTION_CHECKS=%s embedded=%s → %s',
    (nodeEnv, host, tools, checks, embedded, on) => {
      expect(
        devToolsRule(settings({ NODE_ENV: nodeEnv, HOST: host, DEV_TOOLS: tools, PRODUCTION_CHECKS: checks }), embedded),
      ).toBe(on);
    },
  );

  it('refuses DEV_TOOLS=on in production without the test harness acknowledgement', () => {
    expect(() => settings({ NODE_ENV: 'production', DEV_TOOLS: 'on' })).toThrow(/DEV_TOOLS: cannot be on in production/);
    expect(() => settings({ NODE_ENV: 'production', DEV_TOOLS: 'on', PRODUCTION_CHECKS: 'yes' })).toThrow(/PRODUCTION_CHECKS/);
  });

  it('knows loopback addresses from the others', () => {
    expect(['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.1', 'shop.example.com', '127.0.0.1.example.com'].some(isLoopbackHost)).toBe(false);
  });

  it('knows loopback in every spelling a URL parser leaves: a final dot, names under localhost, IPv6 forms', () => {
    const loopback = ['localhost.', 'app.localhost', 'App.Localhost.', '[::ffff:7f00:1]', '[::ffff:127.0.0.1]', '[::7f00:1]'];
    expect(loopback.filter((host) => !isLoopbackHost(host))).toEqual([]);
    expect(['[::]', '0.0.0.0', '0.0.0.0.', '[::ffff:0:0]'].filter((host) => !isUnspecifiedHost(host))).toEqual([]);
    expect(['localhost.example.com', 'notlocalhost', '[::2]', '[2001:db8::1]', '128.0.0.1'].some(isLoopbackHost)).toBe(false);
    expect(['10.0.0.1', '[::1]', 'shop.example'].some(isUnspecifiedHost)).toBe(false);
  });
});
