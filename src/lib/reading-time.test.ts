import { describe, expect, it } from 'vitest';
import { countWords, readingMinutes } from './reading-time.ts';

describe('reading time', () => {
  it('counts words as readers see them, Turkish letters included', () => {
    expect(countWords('## İlk başlık\n\nBir **kalın** söz, [bağlantı metni](https://example.com/x-y) ve e-posta.')).toBe(9);
    expect(countWords('![a long image description](/media/a.webp) <img src="b.png" alt="x"> 3.5 kg')).toBe(2);
    expect(countWords('')).toBe(0);
  });

  it('gives whole minutes at 200 words a minute, at least one', () => {
    expect(readingMinutes(0)).toBe(0);
    expect(readingMinutes(12)).toBe(1);
    expect(readingMinutes(1000)).toBe(5);
  });
});
