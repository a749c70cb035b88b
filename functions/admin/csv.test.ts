import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.ts';

describe('csvCell', () => {
  it('quotes cells with commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('İstanbul’da ılık çay')).toBe('İstanbul’da ılık çay');
    expect(csvCell(null)).toBe('');
    expect(csvCell(4.99)).toBe('4.99');
  });

  it('neutralises spreadsheet formulas with a leading single quote', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+31 20 123')).toBe("'+31 20 123");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });
});

describe('toCsv', () => {
  it('joins rows with CRLF and ends with a line break', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['1', 2],
      ]),
    ).toBe('a,b\r\n1,2\r\n');
  });
});
