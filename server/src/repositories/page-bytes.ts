/**
 * The manifests page as the bytes the wire sends, from the rows a store read: each row holds its values in
 * `fields` order, then the manifest's id and, with the waste lines (stored JSON text, db/waste-lines-json.ts),
 * their length in UTF-8 bytes when the store knows it. Both stores write their pages with this.
 */
import type { ManifestField } from '../../../shared/api/index.ts';

/** Each field's key as it opens its place in a row's JSON: `"name":` for the first, `,"name":` after. */
function fieldNames(fields: readonly ManifestField[]): string[] {
  return fields.map((field, index) => `${index === 0 ? '' : ','}${JSON.stringify(field)}:`);
}

/**
 * A string that JSON.stringify would write as itself between quotes: no quote, backslash, control character
 * or surrogate (JSON.stringify escapes lone surrogates; paired ones are left to it as well).
 */
// eslint-disable-next-line no-control-regex -- the control characters JSON escapes are what it looks for
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * JSON.stringify(value) for a column's value, without calling it for the common plain string or finite number
 * (String(n) is JSON's number): the text of the app's page of 100 rows took ~60 µs in-process with a
 * JSON.stringify call for each of its ~900 values, ~33 µs with this.
 */
function jsonValue(value: unknown): string {
  if (typeof value === 'string') return PLAIN_STRING.test(value) ? `"${value}"` : JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return JSON.stringify(value);
}

/**
 * A page as the UTF-8 bytes the wire sends: the JSON of `{totalElements, content}`, with each row's stored waste lines
 * (~115 of the ~137 KB of the page the app asks for) spliced in as text rather than parsed and serialised
 * again. The pieces are written one after another into one buffer: joined into one string first, the page
 * was a rope that the socket write had to flatten and encode, as much work as the rest of the request
 * (docs/benchmarks/server.md). The buffer is sized exactly, and a piece that is all ASCII (each of its
 * characters one byte, as nearly all of this data is) is copied as Latin-1 rather than encoded: sized at 3
 * bytes a character, every page allocated ~400 KB outside the heap for its ~137 KB and made the collector
 * run more often, and encoding UTF-8 costs about twice the copy.
 */
export function manifestPageBytes(
  totalElements: number,
  rows: readonly unknown[][],
  fields: readonly ManifestField[],
): Buffer {
  const names = fieldNames(fields);
  const lines = fields.indexOf('waste_lines');
  // Each piece with its length in UTF-8 bytes: SQLite keeps that of the stored waste lines, so only the
  // pieces written here are measured.
  const parts: string[] = [];
  const sizes: number[] = [];
  let text = `{"totalElements":${totalElements},"content":[`;
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] ?? [];
    text += index === 0 ? '{' : ',{';
    for (let position = 0; position < fields.length; position += 1) {
      const value = row[position];
      if (position !== lines) {
        text += names[position] + jsonValue(value);
      } else if (typeof value === 'string') {
        text += names[position];
        const stored = row[fields.length + 1];
        parts.push(text, value);
        sizes.push(Buffer.byteLength(text), typeof stored === 'number' ? stored : Buffer.byteLength(value));
        text = '';
      } else {
        text += `${names[position]}[]`;
      }
    }
    text += '}';
  }
  text += ']}';
  parts.push(text);
  sizes.push(Buffer.byteLength(text));
  const bytes = Buffer.allocUnsafe(sizes.reduce((sum, size) => sum + size, 0));
  let length = 0;
  for (const [index, part] of parts.entries()) {
    // As many bytes as UTF-16 units only when every character is ASCII.
    length += bytes.write(part, length, sizes[index] === part.length ? 'latin1' : 'utf8');
  }
  return bytes;
}
