import { describe, expect, it } from 'vitest';
import { within } from './timeout.ts';

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('within', () => {
  it('answers with the work when it ends first, and leaves no timer behind', async () => {
    const before = timers();
    expect(await within(Promise.resolve('done'), 60_000, 'late')).toBe('done');
    expect(timers()).toBe(before);
  });

  it('answers with the fallback when the work takes longer', async () => {
    const never = new Promise<string>(() => {});
    expect(await within(never, 10, 'late')).toBe('late');
  });

  it("passes on the work's failure, and leaves no timer behind", async () => {
    const before = timers();
    await expect(within(Promise.reject(new Error('down')), 60_000, 'late')).rejects.toThrow('down');
    expect(timers()).toBe(before);
  });
});
