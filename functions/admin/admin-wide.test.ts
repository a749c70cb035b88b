import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FUNCTIONS = path.resolve(import.meta.dirname, '..');
const ADMIN = import.meta.dirname;

/** Every module of `functions/` outside this folder, with the relative paths it imports. */
function importsOutsideAdmin(): { file: string; target: string }[] {
  return readdirSync(FUNCTIONS, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => path.join(FUNCTIONS, name))
    .filter((file) => path.dirname(file) !== ADMIN)
    .flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => ({
        file: path.relative(FUNCTIONS, file),
        target: path.resolve(path.dirname(file), match[1]!),
      })),
    );
}

describe('functions/admin/', () => {
  // A room owns its admin use cases (CONTRIBUTING, "An admin screen"); this folder holds only what
  // spans rooms, so it sits above them all and a room reaching into it would import upwards.
  it('is imported by no room', () => {
    const upwards = importsOutsideAdmin().filter(({ target }) => path.dirname(target) === ADMIN);
    expect(upwards.map(({ file, target }) => `${file} -> ${path.relative(FUNCTIONS, target)}`)).toEqual([]);
  });
});
