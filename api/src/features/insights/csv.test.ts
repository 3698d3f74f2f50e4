import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.ts';

/** A strict RFC 4180 reader of one record (what a spreadsheet does with the line). */
function readRecord(line: string): string[] {
  expect(line.endsWith('\r\n')).toBe(true);
  const text = line.slice(0, -2);
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        expect(quote).toBeGreaterThanOrEqual(0);
        cell += text.slice(i, quote);
        i = quote + 1;
        if (text[i] === '"') {
          cell += '"';
          i++;
        } else break;
      }
    } else {
      const end = text.indexOf(',', i);
      cell = text.slice(i, end < 0 ? text.length : end);
      expect(cell).not.toMatch(/["\r\n]/);
      i = end < 0 ? text.length : end;
    }
    cells.push(cell);
    if (i >= text.length) return cells;
    expect(text[i]).toBe(',');
    i++;
  }
}

describe('CSV cells', () => {
  it('read back as written, whatever the text, and never start a formula', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-composite' }), { minLength: 1, maxLength: 6 }), (texts) => {
        const read = readRecord(csvLine(texts));
        expect(read).toEqual(texts.map((text) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text)));
        for (const cell of read) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { numRuns: 500 },
    );
  });

  it('writes numbers, yes/no, picks and empty answers as a spreadsheet reads them', () => {
    expect(csvLine([-3, 2.5, true, false, ['Office', 'Home'], null, undefined, '=SUM(A1)', '@cmd', 'a "quoted", word'])).toBe(
      "-3,2.5,yes,no,Office; Home,,,'=SUM(A1),'@cmd,\"a \"\"quoted\"\", word\"\r\n",
    );
  });
});
