import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json' with { type: 'json' };
import { inScopes } from './translate.ts';

/**
 * Islands receive only the strings they declare (`export const MESSAGES = messageScopes(...)`). This
 * reads the code an island ships (its relative imports, followed) and the endpoints it calls (their
 * code, followed the same way), and fails when the island can show a key its scopes miss: a literal
 * key, a key built from a literal prefix (`language.${code}`), or an error key an endpoint answers.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const KEYS = Object.keys(en);
const BASES = new Set(KEYS.map((key) => key.replace(/_(one|other)$/, '')));
/**
 * How far an endpoint's imports are followed for the keys it answers with: the route and the modules
 * it calls (their refusals and schemas). Deeper lies shared code (guards, mails, other rooms) whose keys
 * never come back to this island.
 */
const ANSWER_DEPTH = 1;

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full, ext) : ext.test(entry.name) ? [full] : [];
  });
}

/** Runtime imports (not `import type`; dynamic ones too) of a module, resolved to files. */
function importsOf(file: string, source: string): string[] {
  const specs = [
    ...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/gm),
    // Loaded later (a form's schema) is shipped all the same.
    ...source.matchAll(/\bimport\('(\.{1,2}\/[^']+)'\)/g),
  ].map((match) => path.resolve(path.dirname(file), match[1]!));
  return specs.filter((spec) => existsSync(spec) && /\.(ts|tsx)$/.test(spec));
}

interface Usage {
  keys: Set<string>;
  prefixes: Set<string>;
  urls: Set<string>;
  files: Set<string>;
}

/** What a module and its imports (to `depth` levels) can show: literal keys, key prefixes, API URLs. */
function scan(entry: string, depth = Infinity): Usage {
  const usage: Usage = { keys: new Set(), prefixes: new Set(), urls: new Set(), files: new Set() };
  const queue: [string, number][] = [[entry, 0]];
  while (queue.length) {
    const [file, level] = queue.shift()!;
    if (usage.files.has(file) || level > depth) continue;
    usage.files.add(file);
    const source = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '');
    for (const match of source.matchAll(/(['"`])([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+)\1/g))
      if (BASES.has(match[2]!)) usage.keys.add(match[2]!);
    for (const match of source.matchAll(/`([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)*\.)\$\{/g)) usage.prefixes.add(match[1]!);
    for (const match of source.matchAll(/['"`](\/api\/[^'"`$?]*)/g)) usage.urls.add(match[1]!);
    queue.push(...importsOf(file, source).map((next): [string, number] => [next, level + 1]));
  }
  return usage;
}

/** API route files, as `/api/...` patterns. */
const ROUTES = files(path.join(ROOT, 'src/pages/api'), /\.ts$/)
  .filter((file) => !file.endsWith('.test.ts'))
  .map((file) => {
    const route = `/${path.relative(path.join(ROOT, 'src/pages'), file)}`.replace(/\.ts$/, '').replace(/\/index$/, '');
    const pattern = new RegExp(`^${route.replace(/\[\.\.\.[^\]]+\]/g, '.*').replace(/\[[^\]]+\]/g, '[^/]+')}/?$`);
    return { file, route, pattern, head: route.split('[')[0]! };
  });

/** The routes a URL (or the literal start of a built URL) written in an island can reach. */
function routesFor(url: string) {
  return ROUTES.filter(
    ({ pattern, head }) => pattern.test(url) || (url.endsWith('/') && (head.startsWith(url) || url.startsWith(head))),
  );
}

/** Islands: the components pages hydrate (`client:*`). */
function islands(): string[] {
  const found = new Set<string>();
  for (const page of files(path.join(ROOT, 'src'), /\.astro$/)) {
    const source = readFileSync(page, 'utf8');
    for (const match of source.matchAll(/^import (\w+)(?:, \{[^}]*\})? from '([^']+\.tsx)'/gm)) {
      if (new RegExp(`<${match[1]}\\s[^>]*client:`).test(source)) found.add(path.resolve(path.dirname(page), match[2]!));
    }
  }
  return [...found].sort();
}

/** The island's `MESSAGES`, as its module exports them (shared lists such as ACCOUNT_ANSWERS included). */
async function declaredScopes(island: string): Promise<string[] | undefined> {
  const module = (await import(island)) as { MESSAGES?: readonly string[] };
  return module.MESSAGES && [...module.MESSAGES];
}

describe('island messages', () => {
  const all = islands();

  it('finds the islands the pages hydrate', () => {
    expect(all.length).toBeGreaterThan(10);
    expect(all.map((file) => path.basename(file))).toContain('LoginForm.tsx');
  });

  for (const island of all) {
    const name = path.relative(ROOT, island);
    it(`${name} declares every key it can show, and ships no dictionary`, async () => {
      const scopes = await declaredScopes(island);
      expect(scopes, `${name}: export const MESSAGES = messageScopes(...)`).toBeDefined();
      const usage = scan(island);
      const shipped = [...usage.files].map((file) => path.relative(ROOT, file));
      expect(shipped, 'the full dictionaries stay on the server').not.toContain('src/i18n/i18n.ts');

      const answers = new Set<string>();
      for (const url of usage.urls) {
        for (const route of routesFor(url)) {
          const server = scan(route.file, ANSWER_DEPTH);
          for (const key of server.keys) answers.add(key);
        }
      }
      const missing = [
        ...[...usage.keys, ...answers].filter((key) => !inScopes(key, scopes!)),
        ...[...usage.prefixes].filter((prefix) => KEYS.some((key) => key.startsWith(prefix) && !inScopes(key, scopes!))),
      ];
      expect([...new Set(missing)].sort(), `${name}: keys its MESSAGES scopes miss`).toEqual([]);
    });
  }
});
