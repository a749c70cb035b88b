import { describe, expect, it } from 'vitest';
import { runRestartDrill, STOP_MODES } from '../../support/restart-drill.ts';

describe('npm start after a stop', () => {
  // One cycle per way of stopping; `npm run faults` runs 20.
  it('is healthy within 10 s after each kind of stop, starting again at once, with every committed row kept', async () => {
    const result = await runRestartDrill({ cycles: STOP_MODES.length, dataDir: '.data/restart-test' });
    expect(result.failures).toEqual([]);
    expect(result.healthy).toBe(STOP_MODES.length);
    expect(result.rowsMissing).toBe(0);
    expect(result.rowsWritten).toBe(STOP_MODES.length);
  }, 120_000);
});
