import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The cells a spreadsheet sees when it splits `csv` on `separator` (records on any line break), with
 * or without honouring quotes: a quoted cell's text starts after its opening quote.
 */
function cellsSplitOn(csv: string, separator: string): string[] {
  return csv
    .split(/\r\n|\r|\n/)
    .flatMap((record) => record.split(separator))
    .flatMap((cell) => [cell, cell.replace(/^"/, '')]);
}

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
    expect(csvCell('\t=1')).toBe("'\t'=1");
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('neutralises a formula after a separator inside a value, for spreadsheets that split on ; or tab', () => {
    expect(csvCell('Ali;=1+1;x')).toBe("Ali;'=1+1;x");
    expect(toCsv([['Ali;=1+1;x', 'b']]).split(';')).toEqual(['Ali', "'=1+1", 'x,b\r\n']);
    expect(csvCell('a\t@SUM(A1)')).toBe("a\t'@SUM(A1)");
    expect(csvCell('a, -1')).toBe('"a, -1"');
    expect(csvCell('a,-1')).toBe(`"a,'-1"`);
    expect(csvCell('x"=1')).toBe(`"x""'=1"`);
    expect(csvCell('two\n+lines')).toBe(`"two\n'+lines"`);
    expect(csvCell('Ayşe-Nur; Öztürk')).toBe('Ayşe-Nur; Öztürk');
  });

  it('no cell starts with a formula character, whatever the spreadsheet splits on (generated rows)', () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', ' ', ',', ';', '\t', '\r', '\n', '"', "'", '=', '+', '-', '@'),
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }), (rows) => {
        const csv = toCsv(rows);
        for (const separator of [',', ';', '\t'])
          for (const seen of cellsSplitOn(csv, separator))
            expect(seen, JSON.stringify({ csv, separator })).not.toMatch(FORMULA_START);
      }),
      { numRuns: 500 },
    );
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
