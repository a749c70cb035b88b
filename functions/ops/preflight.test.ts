import { describe, expect, it } from 'vitest';
import { readEnv } from '../env.ts';
import { productionPreflight } from './preflight.ts';

const problemsFor = (siteUrl: string) =>
  productionPreflight(readEnv({ NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(32), PUBLIC_SITE_URL: siteUrl }), {
    devTools: false,
    embeddedDatabase: false,
  }).problems;

describe('the production preflight', () => {
  it('refuses a site address that is this machine, however it is spelt', () => {
    const local = [
      'https://localhost',
      'https://localhost.',
      'https://LOCALHOST..:8443',
      'https://app.localhost',
      'https://shop.app.localhost./',
      'https://127.0.0.1',
      'https://127.1',
      'https://0x7f000001',
      'https://[::1]',
      'https://[0:0:0:0:0:0:0:1]',
      'https://[::ffff:127.0.0.1]',
      'https://[::ffff:7f00:2]',
      'https://[::]',
      'https://[::ffff:0.0.0.0]',
      'https://0.0.0.0',
      'https://0',
    ];
    const accepted = local.filter((site) => !problemsFor(site).some((problem) => problem.includes('points at this machine')));
    expect(accepted).toEqual([]);
  });

  it('accepts a public address', () => {
    for (const site of ['https://shop.example', 'https://localhost.shop.example', 'https://[2001:db8::1]'])
      expect(problemsFor(site), site).toEqual([]);
  });
});
