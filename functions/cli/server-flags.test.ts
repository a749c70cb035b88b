import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './server-flags.ts';

describe('the server process’s Node flags', () => {
  it('npm start passes them, as the bench’s servers do', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} functions/cli/start.ts`);
  });
});
