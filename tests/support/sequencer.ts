import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * vitest's order (slowest first when it has timed a file before, else largest first), with the files
 * that start whole shops and commands (tests/integration/ops) ahead of the rest: on a fresh clone
 * nothing is timed yet, and these small files, started last, would keep one worker running long after
 * the others have finished.
 */
export default class ShopStartsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const startsShops = (file: TestSpecification) => file.moduleId.includes('/tests/integration/ops/');
    return [...sorted.filter(startsShops), ...sorted.filter((file) => !startsShops(file))];
  }
}
