import { describe, expect, it } from 'vitest';
import { BlogFrontMatterSchema, slugify } from './blog.schema.ts';
import { formatDate } from './dates.ts';

const valid = {
  slug: 'first-budget',
  title: 'T',
  excerpt: 'E',
  author: 'A',
  date: '2026-10-05',
  cover: '/images/blog/x.svg',
  coverAlt: 'decorative',
  tags: ['money'],
};

describe('blog front matter', () => {
  it('accepts a complete post and defaults published to true', () => {
    const parsed = BlogFrontMatterSchema.parse(valid);
    expect(parsed.published).toBe(true);
    expect(parsed.date).toEqual(new Date('2026-10-05'));
  });
  it('refuses a meta description over 160 characters, a bad slug or a missing title', () => {
    expect(BlogFrontMatterSchema.safeParse({ ...valid, metaDescription: 'x'.repeat(161) }).success).toBe(false);
    expect(BlogFrontMatterSchema.safeParse({ ...valid, metaDescription: 'x'.repeat(160) }).success).toBe(true);
    expect(BlogFrontMatterSchema.safeParse({ ...valid, slug: 'Bad Slug!' }).success).toBe(false);
    expect(BlogFrontMatterSchema.safeParse({ ...valid, title: '' }).success).toBe(false);
  });
});

describe('slugify', () => {
  it('transliterates Turkish letters', () => {
    expect(slugify('İş Görüşmesinde Işık Saçın: Çözüm Önerileri')).toBe('is-gorusmesinde-isik-sacin-cozum-onerileri');
    expect(slugify('  Ağaç   --  şeker  ')).toBe('agac-seker');
  });
  it('keeps only letters, digits and single hyphens', () => {
    expect(slugify('50/30/20: The <Budget> Rule!')).toBe('503020-the-budget-rule');
    expect(slugify('Crème brûlée')).toBe('creme-brulee');
    expect(slugify('!!!')).toBe('');
  });
});

describe('formatDate', () => {
  it('writes dates in the page locale', () => {
    expect(formatDate('2026-11-22T12:00:00Z', 'en')).toBe('November 22, 2026');
    expect(formatDate('2026-11-22T12:00:00Z', 'tr')).toBe('22 Kasım 2026');
  });
});
