/*
 * CSV as RFC 4180 writes it (CRLF line ends; a field with a comma, a quote or a line break quoted, its quotes
 * doubled), made safe to open in a spreadsheet: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a
 * carriage return would be read as a formula (CSV injection), so it starts with an apostrophe instead, which
 * spreadsheets show as text. Numbers we write ourselves are written as numbers.
 */
export type Cell = string | number | boolean | null | undefined | string[];

const FORMULA = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  let text = Array.isArray(value) ? value.join('; ') : value;
  if (FORMULA.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: Cell[]): string => `${cells.map(csvCell).join(',')}\r\n`;
