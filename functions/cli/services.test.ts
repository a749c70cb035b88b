import { describe, expect, it } from 'vitest';
import { Running } from './services.ts';

describe('Running', () => {
  it('answers a second stopAll only once the first has stopped everything', async () => {
    const running = new Running();
    const stopped: string[] = [];
    let finish = () => {};
    running.add('database', () => Promise.resolve(stopped.push('database')));
    running.add('server', () => new Promise<void>((resolve) => (finish = resolve)).then(() => void stopped.push('server')));
    const first = running.stopAll();
    let secondDone = false;
    const second = running.stopAll().then(() => (secondDone = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(secondDone).toBe(false);
    finish();
    await Promise.all([first, second]);
    expect(stopped).toEqual(['server', 'database']);
  });
});
