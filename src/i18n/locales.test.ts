import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from '../lib/zod.ts';
import en from './locales/en.json' with { type: 'json' };
import tr from './locales/tr.json' with { type: 'json' };
import { getT } from './i18n.ts';

const Dictionary = z.record(z.string().regex(/^[a-z][A-Za-z0-9]*(\.[a-zA-Z0-9_]+)+$/), z.string().min(1));

describe('locale files', () => {
  it('are flat dictionaries of non-empty strings', () => {
    expect(() => Dictionary.parse(en)).not.toThrow();
    expect(() => Dictionary.parse(tr)).not.toThrow();
  });
  it('have exactly the same keys in English and Turkish', () => {
    const missingInTurkish = Object.keys(en).filter((key) => !(key in tr));
    const missingInEnglish = Object.keys(tr).filter((key) => !(key in en));
    expect({ missingInTurkish, missingInEnglish }).toEqual({ missingInTurkish: [], missingInEnglish: [] });
  });
  it('use the same interpolation variables in both languages', () => {
    const variables = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(variables(tr[key]), key).toEqual(variables(en[key]));
    }
  });
  it('translate per language without sharing state', () => {
    expect(getT('tr')('nav.courses')).toBe('Kurslar');
    expect(getT('en')('nav.courses')).toBe('Courses');
    expect(getT('tr')('crash.reportCopied', { email: 'a@b.c' })).toContain('a@b.c');
  });
  it('hold every key the code asks for by name', () => {
    const sources = ['src', 'functions'].flatMap((dir) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(ts|tsx|astro)$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
        .map((entry) => path.join(entry.parentPath, entry.name)),
    );
    const missing = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+)'/g)]
        .map((match) => match[1]!)
        .filter((key) => !(key in en) && !(`${key}_other` in en))
        .map((key) => `${file}: ${key}`),
    );
    expect(missing).toEqual([]);
  });
  it('spell Turkish with its own dotted and dotless i', () => {
    expect(tr['footer.contact']).toBe('İletişim');
    expect(tr['notFound.title']).toBe('Sayfa Bulunamadı');
  });
});
