import { afterEach, describe, expect, it, vi } from 'vitest';
import { GENERATOR_COLUMNS } from '../../shared/columns.ts';
import { formatValue } from '../../renderer/src/base/format.ts';
import {
  rowsAsTsv,
  tsvField,
  writeClipboard,
  type CopyColumn,
} from '../../renderer/src/components/grid-copy.ts';

type Row = Record<string, string | number | undefined>;

/** Columns as the grid builds them: the catalogue's header, the text the grid shows. */
function columns(fields: string[]): CopyColumn<Row>[] {
  return fields.map((field) => {
    const column = GENERATOR_COLUMNS.find((c) => c.field === field);
    if (!column) throw new Error(`no column ${field}`);
    return { header: column.header, text: (row) => formatValue(column.kind, row[field]) };
  });
}

describe('rowsAsTsv', () => {
  it('writes a header line from the catalogue, then each row as the grid shows it', () => {
    const rows: Row[] = [
      { epa_handler_id: 'CAD000000001', generator_name: 'Acme Plating', total_waste: 1234.5 },
      { epa_handler_id: 'TXD000000002', generator_name: 'Bolt Works', total_waste: 0 },
    ];
    expect(rowsAsTsv(columns(['epa_handler_id', 'generator_name', 'total_waste']), rows)).toBe(
      [
        'EPA ID\tName\tTotal waste (tons)',
        'CAD000000001\tAcme Plating\t1,234.50',
        // 0 tons generated is no report: empty, as the grid shows it (shared/columns.ts isUnreported).
        'TXD000000002\tBolt Works\t',
      ].join('\n'),
    );
  });

  it('leaves a missing value as an empty field, so the columns still line up', () => {
    const rows: Row[] = [{ epa_handler_id: 'CAD000000001' }];
    expect(rowsAsTsv(columns(['epa_handler_id', 'location_city', 'total_waste']), rows)).toBe(
      'EPA ID\tCity\tTotal waste (tons)\nCAD000000001\t\t',
    );
  });

  it('turns tabs and line breaks inside values and headers into spaces', () => {
    const odd: CopyColumn<Row>[] = [
      { header: 'Two\tparts', text: (row) => String(row.name) },
      { header: 'Note', text: (row) => String(row.note) },
    ];
    const rows: Row[] = [{ name: 'Acme\tPlating', note: 'line one\r\nline two\nline\rthree' }];
    const lines = rowsAsTsv(odd, rows).split('\n');
    expect(lines).toEqual(['Two parts\tNote', 'Acme Plating\tline one line two line three']);
  });

  it('writes only the header line for no rows', () => {
    expect(rowsAsTsv(columns(['epa_handler_id']), [])).toBe('EPA ID');
  });
});

describe('tsvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a\tb', 'a b'],
    ['a\nb', 'a b'],
    ['a\r\nb', 'a b'],
    ['a\rb', 'a b'],
    ['\t\t', '  '],
  ])('%j becomes %j', (text, field) => {
    expect(tsvField(text)).toBe(field);
  });
});

describe('writeClipboard', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('writes the text and reports no problem', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    expect(await writeClipboard('EPA ID\nCAD000000001')).toBeUndefined();
    expect(writeText).toHaveBeenCalledWith('EPA ID\nCAD000000001');
  });

  it.each([
    ['a window without the Clipboard API', {}, 'This window has no access to the clipboard.'],
    [
      'a refused write',
      { clipboard: { writeText: () => Promise.reject(new Error('Write permission denied.')) } },
      'The clipboard refused the text: Write permission denied.',
    ],
  ])('says why for %s', async (_case, fakeNavigator, message) => {
    vi.stubGlobal('navigator', fakeNavigator);
    expect(await writeClipboard('x')).toBe(message);
  });
});
