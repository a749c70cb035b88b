import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FUNCTIONS = path.resolve(import.meta.dirname, '..');

const sources = readdirSync(FUNCTIONS, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('schema.generated.ts'))
  .map((name) => ({ name, text: readFileSync(path.join(FUNCTIONS, name), 'utf8') }));

/** The text of each `db().transaction().execute(…)` call's argument (its callback), balanced by parentheses. */
function transactionCallbacks(text: string): string[] {
  return [...text.matchAll(/\.transaction\(\)\s*\.execute\(/g)].map((match) => {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0 && end < text.length) depth += text[end++] === '(' ? 1 : text[end - 1] === ')' ? -1 : 0;
    return text.slice(match.index + match[0].length, end);
  });
}

// The rule is in CONTRIBUTING ("The database handle").
describe('the database handle', () => {
  it('is typed one way: Db (a transaction is one) or Transaction<Database>, never a union or an alias of them', () => {
    const spelled = sources.filter(({ text }) => /Kysely<Database>\s*\||\|\s*Transaction<Database>/.test(text));
    expect(spelled.map(({ name }) => name)).toEqual([]);
  });

  it('is never db() inside a transaction: that query would run on another connection, outside it', () => {
    const inside = sources.filter(({ text }) => transactionCallbacks(text).some((callback) => /\bdb\(\)/.test(callback)));
    expect(inside.map(({ name }) => name)).toEqual([]);
  });
});
