/*
 * CSV as RFC 4180 writes it (docs/api.md#export-get-apiexport): fields separated by commas, records
 * by CRLF; a field holding a comma, a double quote, CR or LF is enclosed in double quotes, and a
 * double quote inside it is doubled. Every other character (Chinese, emoji) is written as it is, in
 * UTF-8. A value is written exactly: nothing is prefixed to a field that a spreadsheet would read
 * as a formula (the export is data; docs/decisions.md#the-exports-csv).
 */

const NEEDS_QUOTES = /[",\r\n]/;

/** One field: null and undefined are empty. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, with its CRLF. */
export const csvRecord = (fields: readonly (string | number | null | undefined)[]): string =>
  `${fields.map(csvField).join(',')}\r\n`;

/**
 * A CSV text back into records (what csvRecord writes, and any RFC 4180 text): for tests and
 * tools that read an export back.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}
