import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { leaveServerEnvToServer, SERVER_ENV, SERVER_NODE_FLAGS } from './server-flags.ts';

describe('the server process’s Node flags and environment', () => {
  it('npm start passes them, as the bench’s servers do', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    const environment = Object.entries(SERVER_ENV).map(([name, value]) => `${name}=${value}`);
    expect(scripts.start).toBe(`${environment.join(' ')} node ${SERVER_NODE_FLAGS.join(' ')} functions/cli/start.ts`);
    expect(SERVER_ENV.GLIBC_TUNABLES).toMatch(/^glibc\.malloc\.[a-z_]+=\d+(:glibc\.malloc\.[a-z_]+=\d+)*$/);
  });

  it('are not passed on to the processes the server starts, unless the operator set them otherwise', () => {
    const started = { ...SERVER_ENV, PATH: '/usr/bin' };
    leaveServerEnvToServer(started);
    expect(started).toEqual({ PATH: '/usr/bin' });
    const operators = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' };
    leaveServerEnvToServer(operators);
    expect(operators).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' });
  });
});
