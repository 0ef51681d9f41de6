/**
 * The importer's readers on the mess real files carry: CSV split at every byte boundary (quotes, CRLF, a
 * BOM, a line break inside a quoted field, a cut last line, Windows-1252 text), JSON in its three shapes, the date and number
 * forms EPA writes, header names in every spelling, a row's line number or place missing or 0, zip archives
 * (a stored and a deflated entry).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvParser, MAX_RECORD_CHARS, type CsvRecord } from '../../../server/src/import/csv-reader.ts';
import { detectLayout, tableOfName } from '../../../server/src/import/epa-layouts.ts';
import { mapRow } from '../../../server/src/import/epa-rows.ts';
import {
  JsonValueScanner,
  MAX_GIVEN_UP,
  MAX_VALUE_CHARS,
  type JsonValue,
} from '../../../server/src/import/json-reader.ts';
import { loadUnits, toTons } from '../../../server/src/import/units.ts';
import {
  readContainers,
  readCount,
  readDate,
  readNumber,
  readTimestamp,
  splitWasteCodes,
} from '../../../server/src/import/values.ts';
import { zipEntries, zipEntryStream } from '../../../server/src/import/zip.ts';
import { writeZip } from '../../helpers/zip-writer.ts';

/** Feeds `bytes` in chunks of `size`, so every boundary (inside a quote, between CR and LF) is crossed. */
function parseBytesInChunks(bytes: Buffer, size: number): { records: CsvRecord[]; parser: CsvParser } {
  const parser = new CsvParser();
  const records: CsvRecord[] = [];
  for (let start = 0; start < bytes.length; start += size) {
    records.push(...parser.push(bytes.subarray(start, start + size)));
  }
  records.push(...parser.end());
  return { records, parser };
}

/** `text` as UTF-8, in chunks of `size` bytes. */
const parseInChunks = (text: string, size: number): CsvRecord[] =>
  parseBytesInChunks(Buffer.from(text, 'utf8'), size).records;

const MESSY =
  '\ufeff"A","B","C"\r\n' +
  '"1","x, y","he said ""hi"""\r\n' +
  '2,,"two\nlines"\r\n' +
  '\r\n' +
  '"3","é ü 漢","last"\n' +
  '"4","cut';

describe('CSV', () => {
  it.each([1, 2, 3, 7, 64, 1 << 20])('reads the same records in chunks of %i bytes', (size) => {
    const records = parseInChunks(MESSY, size);
    expect(records.map((record) => record.fields)).toEqual([
      ['A', 'B', 'C'],
      ['1', 'x, y', 'he said "hi"'],
      ['2', '', 'two\nlines'],
      ['3', 'é ü 漢', 'last'],
      ['4', 'cut'],
    ]);
    // Physical lines: the record after a quoted line break starts two lines on; the blank line counts.
    expect(records.map((record) => record.line)).toEqual([1, 2, 3, 6, 7]);
    expect(records.map((record) => record.unterminated ?? false)).toEqual([false, false, false, false, true]);
    expect(records[1]?.raw).toBe('"1","x, y","he said ""hi"""');
  });

  it.each([1, 2, 3, 5, 64])(
    'replaces bytes that are not UTF-8, and a character the file cuts short, in chunks of %i bytes',
    (size) => {
      const bytes = Buffer.concat([
        Buffer.from('"a","😀 b"\n"c', 'utf8'),
        Buffer.from([0xff]),
        Buffer.from('d","', 'utf8'),
        // The first three of the four bytes of 😀: the file ends inside the character.
        Buffer.from('😀', 'utf8').subarray(0, 3),
      ]);
      const { records, parser } = parseBytesInChunks(bytes, size);
      expect(records.map((record) => record.fields)).toEqual([
        ['a', '😀 b'],
        ['c\ufffdd', '\ufffd'],
      ]);
      expect(parser.encoding).toBe('utf-8');
    },
  );

  /** Windows-1252's bytes of `text`: Latin-1's, but for the curly apostrophe, 0x92. */
  const windows1252 = (text: string) => Buffer.from(text.replaceAll('’', '\x92'), 'latin1');

  it.each([1, 2, 3, 5, 64, 1 << 20])(
    'reads a file whose first bytes beyond ASCII are not UTF-8 as Windows-1252, to its end, in chunks of %i bytes',
    (size) => {
      const bytes = Buffer.concat([
        windows1252('"name","city"\r\n"Macy’s","Montréal"\r\n"Niño","'),
        // Bytes that would be UTF-8 (é) read as what they are in Windows-1252, as the rest of the file.
        Buffer.from('é', 'utf8'),
        windows1252('"\r\n"last","Zürich'),
      ]);
      const { records, parser } = parseBytesInChunks(bytes, size);
      expect(records.map((record) => record.fields)).toEqual([
        ['name', 'city'],
        ['Macy’s', 'Montréal'],
        ['Niño', 'Ã©'],
        ['last', 'Zürich'],
      ]);
      expect(parser.encoding).toBe('windows-1252');
    },
  );

  it.each([1, 2, 64])('reads a last byte beyond ASCII as Windows-1252, in chunks of %i bytes', (size) => {
    const bytes = windows1252('a,b\n1,caf\u00e9');
    const { records, parser } = parseBytesInChunks(bytes, size);
    expect(records.map((record) => record.fields)).toEqual([
      ['a', 'b'],
      ['1', 'café'],
    ]);
    expect(parser.encoding).toBe('windows-1252');
  });

  it('leaves the encoding undecided while every byte is ASCII, and takes a byte order mark as UTF-8', () => {
    const ascii = new CsvParser();
    ascii.push(Buffer.from('a,b\n1,2\n'));
    ascii.end();
    expect(ascii.encoding).toBe('undecided');
    const marked = new CsvParser();
    expect(marked.push(Buffer.from('\ufeffa,b\n', 'utf8')).map((record) => record.fields)).toEqual([
      ['a', 'b'],
    ]);
    expect(marked.encoding).toBe('utf-8');
  });

  it('keeps a last line without a line break', () => {
    expect(parseInChunks('a,b\n1,2', 1).map((record) => record.fields)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  // Chunks of a stream's size and smaller: a record held open is scanned again as each chunk comes.
  it.each([10_000, 65536])(
    'gives up the line of a quote that never closes after MAX_RECORD_CHARS, and reads on (chunks of %i)',
    (size) => {
      // Unquoted fields, as RCRAInfo writes them, one of which opens a quote: with no quote after it,
      // everything to the end of the file would be one field.
      const rows = Array.from({ length: 60_000 }, (_, index) => `${index + 3},plain name ${index}`);
      const text = ['id,name', '1,"Scott Institute of Technology', '2,next', ...rows, ''].join('\n');
      expect(text.length).toBeGreaterThan(MAX_RECORD_CHARS);
      const records = parseInChunks(text, size);
      expect(records.slice(0, 3)).toEqual([
        { fields: ['id', 'name'], line: 1, raw: 'id,name' },
        { fields: [], line: 2, raw: '1,"Scott Institute of Technology', overlong: true },
        { fields: ['2', 'next'], line: 3, raw: '2,next' },
      ]);
      expect(records).toHaveLength(3 + rows.length);
      expect(records.at(-1)).toEqual({
        fields: ['60002', 'plain name 59999'],
        line: 60_003,
        raw: rows.at(-1),
      });
    },
  );

  it.each([10_000, 65536])(
    'passes over a line longer than MAX_RECORD_CHARS to its end (chunks of %i)',
    (size) => {
      const long = `1,${'x'.repeat(MAX_RECORD_CHARS + 70_000)}`;
      const records = parseInChunks(['a,b', long, '2,y', ''].join('\r\n'), size);
      expect(
        records.map((record) => [record.fields, record.line, record.raw.length, record.overlong ?? false]),
      ).toEqual([
        [['a', 'b'], 1, 3, false],
        [[], 2, MAX_RECORD_CHARS, true],
        [['2', 'y'], 3, 3, false],
      ]);
    },
  );

  it('keeps a record that spans lines within MAX_RECORD_CHARS', () => {
    const field = `${'z'.repeat(MAX_RECORD_CHARS / 2)}\n${'z'.repeat(MAX_RECORD_CHARS / 2 - 100)}`;
    const records = parseInChunks(`a,b\n1,"${field}"\n2,y\n`, 65536);
    expect(records.map((record) => [record.fields.at(-1)?.length, record.line])).toEqual([
      [1, 1],
      [field.length, 2],
      [1, 4],
    ]);
  });
});

describe('JSON', () => {
  const values = (text: string, size: number): JsonValue[] => {
    const scanner = new JsonValueScanner();
    const bytes = Buffer.from(text);
    const out: JsonValue[] = [];
    for (let start = 0; start < bytes.length; start += size)
      out.push(...scanner.push(bytes.subarray(start, start + size)));
    out.push(...scanner.end());
    return out;
  };

  it.each([1, 5, 4096])('reads one object, an array and JSON lines alike (chunks of %i)', (size) => {
    expect(values('{"a": "}{\\"", "b": [1, {"c": 2}]}', size).map((value) => value.value)).toEqual([
      { a: '}{"', b: [1, { c: 2 }] },
    ]);
    expect(values('[\n {"n": 1},\n {"n": 2}\n]\n', size).map((value) => [value.value, value.line])).toEqual([
      [{ n: 1 }, 2],
      [{ n: 2 }, 3],
    ]);
    expect(values('{"n": 1}\n{"n": 2}\n', size).map((value) => value.value)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('reports a broken value and one cut at the end, and reads on', () => {
    const read = values('{"n": 1, }\n{"n": 2}\n{"n": 3', 3);
    expect(read.map((value) => value.value)).toEqual([undefined, { n: 2 }, undefined]);
    expect(read[0]?.error).toMatch(/not valid JSON/);
    expect(read[2]?.error).toBe('the file ends inside this value');
  });

  /** Manifests one to a line from `first`, more than MAX_VALUE_CHARS of them together. */
  const manyLines = (first: number, separator = '\n') => {
    const pad = 'p'.repeat(1000);
    const count = Math.ceil(MAX_VALUE_CHARS / 1000) + 10;
    return Array.from({ length: count }, (_, index) => JSON.stringify({ n: first + index, pad })).join(
      separator,
    );
  };
  const numbers = (read: JsonValue[]) => read.map((value) => (value.value as { n?: number } | undefined)?.n);

  it('gives up the line of a quote that never closes after MAX_VALUE_CHARS, and reads on', () => {
    const broken = '{"manifestTrackingNumber": "100000000ELC", "generator": {"name": "cut';
    const rest = manyLines(2);
    const read = values(`${broken}\n${rest}\n`, 65536);
    expect(read[0]).toEqual({
      value: undefined,
      error: `no value ends within 16,777,216 characters of this line (a quote or bracket that does not close): the line is rejected and reading goes on at the next`,
      line: 1,
      raw: broken,
    });
    const count = rest.split('\n').length;
    expect(numbers(read.slice(1))).toEqual(Array.from({ length: count }, (_, index) => 2 + index));
    expect(read.at(-1)?.line).toBe(count + 1);
  });

  it('reads on inside a top-level array after a value it gave up', () => {
    const read = values(`[\n{"n": 1},\n{"n": "open,\n${manyLines(3, ',\n')}\n]\n`, 65536);
    expect(read.slice(0, 2).map((value) => [value.value, value.line, value.error])).toEqual([
      [{ n: 1 }, 2, undefined],
      [undefined, 3, expect.stringMatching(/^no value ends within 16,777,216 characters/)],
    ]);
    expect(numbers(read.slice(2)).slice(0, 2)).toEqual([3, 4]);
    expect(read.slice(2).every((value) => value.error === undefined)).toBe(true);
  });

  it(`stops reading a file at the value it gives up after ${MAX_GIVEN_UP}`, () => {
    const opened = Array.from({ length: MAX_GIVEN_UP + 2 }, (_, index) => `{"cut": ${index + 1}, "lines": [`);
    const read = values(`${opened.join('\n')}\n${manyLines(100)}\n{"n": 1}\n`, 65536);
    expect(read.map((value) => [value.line, value.raw, value.error?.split(':')[0]])).toEqual([
      ...opened
        .slice(0, MAX_GIVEN_UP)
        .map((raw, index) => [
          index + 1,
          raw,
          'no value ends within 16,777,216 characters of this line (a quote or bracket that does not close)',
        ]),
      [
        MAX_GIVEN_UP + 1,
        opened[MAX_GIVEN_UP],
        `no value ends within 16,777,216 characters of this line, nor of ${MAX_GIVEN_UP} lines before it in this file`,
      ],
    ]);
  });

  it('passes over a line longer than MAX_VALUE_CHARS to its end', () => {
    const long = `{"n": 1, "pad": "${'x'.repeat(MAX_VALUE_CHARS + 70_000)}"}`;
    const read = values(`${long}\n{"n": 2}\n`, 65536);
    expect(read.map((value) => [value.value, value.line, value.raw.length])).toEqual([
      [undefined, 1, MAX_VALUE_CHARS],
      [{ n: 2 }, 2, 8],
    ]);
  });
});

describe('values', () => {
  it.each([
    ['2024-09-16', '2024-09-16'],
    ['2024-09-16 13:45:00', '2024-09-16'],
    ['2022-01-21T19:19:28.423+0000', '2022-01-21'],
    ['9/16/2024', '2024-09-16'],
    ['16-SEP-24', '2024-09-16'],
    ['20240916', '2024-09-16'],
    ['', ''],
  ])('reads the date %j', (text, date) => {
    expect(readDate(text)).toEqual({ ok: true, value: date });
  });

  it.each(['2024-02-30', '13/01/2024', 'yesterday', '2024-9'])('refuses the date %j', (text) => {
    expect(readDate(text)).toEqual({ ok: false, message: `not a date: "${text}"` });
  });

  it.each([
    ['2024-09-16', '2024-09-16'],
    ['9/16/2024', '2024-09-16'],
    ['', ''],
    ['2024-09-16 13:45:00', '2024-09-16T13:45:00.000Z'],
    ['2024-09-16 13:45:00.0', '2024-09-16T13:45:00.000Z'],
    ['2024-09-16T13:45', '2024-09-16T13:45:00.000Z'],
    ['2022-01-21T19:19:28.423+0000', '2022-01-21T19:19:28.423Z'],
    ['2018-01-22T05:07:00.00Z', '2018-01-22T05:07:00.000Z'],
    // A zone is applied: the same moment, whatever zone wrote it, sorts in its place.
    ['2024-09-16T23:30:00-05:00', '2024-09-17T04:30:00.000Z'],
    ['9/16/2024 12:00:00 AM', '2024-09-16T00:00:00.000Z'],
    ['9/16/2024 3:03:27 PM', '2024-09-16T15:03:27.000Z'],
    ['16-SEP-24 03.15.22.000000 PM', '2024-09-16T15:15:22.000Z'],
  ])('reads the change time %j', (text, moment) => {
    expect(readTimestamp(text)).toEqual({ ok: true, value: moment });
  });

  it.each(['2024-09-16 25:00', '9/16/2024 13:00 PM', '2024-02-30 10:00', '2024-09-16 noon'])(
    'refuses the change time %j',
    (text) => {
      expect(readTimestamp(text)).toEqual({ ok: false, message: `not a date: "${text}"` });
    },
  );

  it.each([
    ['1,234.5', 1234.5],
    [' 0.75 ', 0.75],
    ['-2', -2],
    ['1e3', 1000],
  ])('reads the number %j', (text, number) => {
    expect(readNumber(text)).toEqual({ ok: true, value: number });
  });

  it.each(['abc', '1,23', '12a', '.'])('refuses the number %j', (text) => {
    expect(readNumber(text).ok).toBe(false);
  });

  it('reads amounts up to 1,000,000,000,000 and refuses larger ones, which totals could not hold', () => {
    expect(readNumber('-1e12')).toEqual({ ok: true, value: -1e12 });
    expect(readNumber('1e308')).toEqual({
      ok: false,
      message: 'too large for an amount (at most 1,000,000,000,000): "1e308"',
    });
  });

  it.each([
    ['', undefined],
    ['0', 0],
    ['2,147,483,647', 2_147_483_647],
  ])('reads the count %j', (text, count) => {
    expect(readCount(text)).toEqual({ ok: true, value: count });
  });

  it.each([
    ['3.5', 'not a whole number: "3.5"'],
    ['-1', 'not a whole number: "-1"'],
    // PostgreSQL's integer holds no more: it refused the batch, and the import could not go on.
    ['2147483648', 'too large for a count (at most 2,147,483,647): "2147483648"'],
  ])('refuses the count %j', (text, message) => {
    expect(readCount(text)).toEqual({ ok: false, message });
  });

  it('reads a waste line’s containers up to the 99,999 of EPA’s manifest schema', () => {
    expect(readContainers('99999')).toEqual({ ok: true, value: 99_999 });
    expect(readContainers('100000')).toEqual({
      ok: false,
      message: 'more containers than a waste line holds (0 to 99,999): "100000"',
    });
  });

  it('splits waste code lists however EPA separates them', () => {
    expect(splitWasteCodes(' d001, F003;F003 U220 ')).toEqual(['D001', 'F003', 'U220']);
  });

  it('converts quantities only where the unit or the density says how', () => {
    const units = loadUnits();
    expect(toTons(units, 2000, 'P')).toBe(1);
    expect(toTons(units, 432, 'K')).toBeCloseTo(0.476198, 6);
    expect(toTons(units, 55, 'G')).toBeUndefined();
    expect(toTons(units, 43, 'G', { value: 123, unit: '1' })).toBeCloseTo(2.6445, 6);
    expect(toTons(units, 1000, 'L', { value: 1, unit: '2' })).toBeCloseTo(1.102311, 5);
    expect(toTons(units, 5, 'X')).toBeUndefined();
  });
});

describe('headers', () => {
  it.each([
    ['EM_WASTE_LINE_26.csv', 'EM_WASTE_LINE'],
    ['em_manifest.zip', 'EM_MANIFEST'],
    ['HD_REPORTING_0.csv', 'HD_REPORTING'],
    ['export.csv', undefined],
  ])('names %s as %s', (name, table) => {
    expect(tableOfName(name)).toBe(table);
  });

  it('reads a column by its EPA name, its DDL name or either with underscores, and lists the unknown', () => {
    for (const header of [
      ['MANIFEST TRACKING NUMBER', 'GENERATOR ID', 'SOMETHING NEW'],
      ['ManifestTrackingNumber', 'GeneratorEPAID', 'SOMETHING NEW'],
      ['manifest_tracking_number', 'generator_id', 'SOMETHING NEW'],
    ]) {
      const found = detectLayout('part.csv', header);
      if (!('header' in found)) throw new Error(found.error);
      expect(found.header.layout.table).toBe('EM_MANIFEST');
      expect(found.header.positions.get('tracking')).toBe(0);
      expect(found.header.unknown).toEqual(['SOMETHING NEW']);
    }
  });

  it('refuses a file whose header lacks what its name promises, naming the column', () => {
    expect(detectLayout('EM_WASTE_LINE.csv', ['MANIFEST TRACKING NUMBER', 'QUANTITY TONS'])).toEqual({
      error: 'the header of this EM_WASTE_LINE file has no "WASTE LINE NUMBER" column',
    });
  });
});

describe('rows', () => {
  const context = { units: loadUnits(), generatorStatuses: [] };
  /** The outcome of one row of `file` under `header`. */
  const mapped = (file: string, header: string[], fields: string[]) => {
    const found = detectLayout(file, header);
    if (!('header' in found)) throw new Error(found.error);
    return mapRow(found.header, fields, { file, line: 2, raw: fields.join(',') }, context);
  };
  const TRANSPORTER = ['MANIFEST TRACKING NUMBER', 'TRANSPORTER LINE NUMBER', 'TRANSPORTER ID'];
  const CODE = ['MANIFEST TRACKING NUMBER', 'WASTE LINE NUMBER', 'FEDERAL WASTE CODE'];

  it.each([
    ['a transporter without its place', 'EM_TRANSPORTER.csv', TRANSPORTER, '', 'TRANSPORTER LINE NUMBER'],
    ['a transporter in place 0', 'EM_TRANSPORTER.csv', TRANSPORTER, '0', 'TRANSPORTER LINE NUMBER'],
    ['a waste code of line 0', 'EM_FEDERAL_WASTE_CODE.csv', CODE, '0', 'WASTE LINE NUMBER'],
  ])('refuses %s, naming the column', (_, file, header, number, column) => {
    expect(mapped(file, header, ['000000101ELC', number, 'D001'])).toEqual({
      rejection: { file, line: 2, raw: `000000101ELC,${number},D001`, column, reason: `no ${column}` },
    });
  });

  it('reads a transporter in its place', () => {
    expect(mapped('EM_TRANSPORTER.csv', TRANSPORTER, ['000000101elc', '2', 'txd000000001'])).toMatchObject({
      record: {
        kind: 'transporter',
        record: { trackingNumber: '000000101ELC', order: 2, epaId: 'TXD000000001' },
      },
    });
  });
});

describe('zip', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-zip-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('streams stored and deflated entries', async () => {
    const big = 'x,y\n'.repeat(50_000);
    const path = join(dir, 'parts.zip');
    writeZip(path, [
      { name: 'small.csv', data: 'a,b\n1,2\n', method: 0 },
      { name: 'EM_WASTE_LINE_1.csv', data: big, method: 8 },
    ]);
    const entries = await zipEntries(path, statSync(path).size);
    expect(entries.map((entry) => [entry.name, entry.method, entry.size])).toEqual([
      ['small.csv', 0, 8],
      ['EM_WASTE_LINE_1.csv', 8, big.length],
    ]);
    for (const [entry, text] of [
      [entries[0], 'a,b\n1,2\n'],
      [entries[1], big],
    ] as const) {
      if (!entry) throw new Error('missing entry');
      const { stream } = await zipEntryStream(path, entry);
      const chunks: Buffer[] = [];
      for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
      expect(Buffer.concat(chunks).toString()).toBe(text);
    }
  });
});
