import { spawnSync } from 'node:child_process';
import { buildIfNeeded } from '../functions/cli/build-if-needed.ts';

/**
 * `npm test`: the build when the sources changed, the unit and integration tests (vitest), then the
 * end-to-end tests (Playwright); it prints how long each took and the whole, beside the goal.
 */
const GOAL_S = 7 * 60;
const phases: [name: string, run: () => boolean][] = [
  ['build', () => (buildIfNeeded(), true)],
  ['vitest', () => npmRun('test:unit')],
  ['Playwright', () => npmRun('test:e2e')],
];

function npmRun(script: string): boolean {
  return spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' }).status === 0;
}

function attempt(name: string, run: () => boolean): boolean {
  try {
    return run();
  } catch (error) {
    console.error(`\n${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const startedAt = performance.now();
const took: string[] = [];
let passed = true;
for (const [name, run] of phases) {
  const phaseStart = performance.now();
  passed = attempt(name, run);
  took.push(`${name} ${seconds(phaseStart).toFixed(0)} s`);
  if (!passed) break;
}
const total = seconds(startedAt);
const minutes = `${Math.floor(total / 60)} min ${Math.round(total % 60)} s`;
console.log(`\nnpm test ${passed ? 'passed' : 'FAILED'} in ${minutes} (${took.join(', ')}; goal ≤ ${GOAL_S / 60} min)`);
process.exit(passed ? 0 : 1);
