import { describe, expect, it } from 'vitest';
import { expectFailingStartsExplained } from '../../support/failing-starts.ts';
import { runRestartDrill, type StopMode } from '../../support/restart-drill.ts';

describe('npm start after a stop', () => {
  // A supervisor's stop and a crash of node alone (its PostgreSQL adopted by the next start); every
  // kind of stop is a drill of `npm run test:sweep`, and `npm run faults` runs 20 against the 10 s goal.
  // Here, beside other test files on two cores, a restart only has to come back, within 45 s.
  it('is healthy after a stop and after a crash, starting again at once, with every committed row kept', async () => {
    const modes: StopMode[] = ['SIGTERM to the group', 'SIGKILL to node only'];
    const result = await runRestartDrill({ cycles: modes.length, modes, dataDir: '.data/restart-test', readyLimitMs: 45_000 });
    expect(result.failures).toEqual([]);
    expect(result.healthy).toBe(modes.length);
    expect(result.rowsMissing).toBe(0);
    expect(result.rowsWritten).toBe(modes.length);
  }, 240_000);
});

describe('a start that cannot succeed', () => {
  it('says in one line what to do, with no stack trace, and exits 1 (a bad variable and a production check; every one in test:sweep)', async () => {
    await expectFailingStartsExplained(2);
  }, 60_000);
});
