import { describe, expect, it } from 'vitest';
import { chooseRange } from './byte-range.ts';

const ETAG = '"abc"';
const choose = (range: string | undefined, size = 1000, ifRange?: string) =>
  chooseRange(new Headers({ ...(range ? { range } : {}), ...(ifRange ? { 'if-range': ifRange } : {}) }), size, ETAG);

describe('chooseRange', () => {
  it('serves one range: from a byte to the end, between two bytes, or the last bytes', () => {
    expect(choose('bytes=200-')).toEqual({ whole: false, range: { start: 200, end: 999 } });
    expect(choose('bytes=0-99')).toEqual({ whole: false, range: { start: 0, end: 99 } });
    expect(choose('bytes=900-5000')).toEqual({ whole: false, range: { start: 900, end: 999 } });
    expect(choose('bytes=-100')).toEqual({ whole: false, range: { start: 900, end: 999 } });
    expect(choose('bytes=-5000')).toEqual({ whole: false, range: { start: 0, end: 999 } });
  });

  it('refuses a range that starts past the end (416), and answers the whole file to what it does not serve', () => {
    expect(choose('bytes=1000-')).toEqual({ unsatisfiable: true });
    expect(choose('bytes=-0')).toEqual({ unsatisfiable: true });
    for (const header of [undefined, 'bytes=0-1,5-9', 'items=0-1', 'bytes=abc', 'bytes=-', 'bytes=50-10'])
      expect(choose(header), String(header)).toEqual({ whole: true });
  });

  it('answers the whole file when If-Range names another version of it', () => {
    expect(choose('bytes=200-', 1000, '"old"')).toEqual({ whole: true });
    expect(choose('bytes=200-', 1000, ETAG)).toEqual({ whole: false, range: { start: 200, end: 999 } });
  });
});
