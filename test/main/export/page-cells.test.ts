import { describe, expect, it } from 'vitest';
import { ManifestList } from '../../../shared/api/index.ts';
import { GENERATOR_COLUMNS, MANIFEST_COLUMNS, WASTE_LINE_COLUMNS } from '../../../shared/columns.ts';
import { cellValue } from '../../../main/src/export/cells.ts';
import { readPageCells } from '../../../main/src/export/page-cells.ts';

const manifests = { columns: MANIFEST_COLUMNS, wasteLines: true };
const fail = (message: string) => new Error(message);

function line(extra: Record<string, unknown> = {}) {
  return {
    manifest_tracking_number: '000000001JJK',
    waste_line_number: '1',
    usdot_haz_indicator: 'Y',
    usdot_id_number: 'UN1993',
    usdot_desc: 'Flammable liquid, n.o.s.\u0007',
    container_count: ' 1,200',
    container_type_code: 'DM',
    epa_waste_indicator: 'N',
    waste_quantity_tons: 0.125,
    transporter: 'Rapid Haul',
    federal_waste_codes: 'D001,F003',
    mmc_and_desc: 'H141 - Storage',
    ...extra,
  };
}

function manifest(extra: Record<string, unknown> = {}) {
  return {
    manifest_tracking_number: '000000001JJK',
    generator_name: 'Société Générale de Déchets',
    transporter: 'Rapid Haul',
    shipped_date: '2024-03-01',
    received_date: '2024-02-30',
    total_waste_quantity_tons: ' 1,234.56',
    container_count: 3,
    waste_lines: [line(), line({ waste_line_number: 2 })],
    ...extra,
  };
}

const read = (body: unknown) => readPageCells(JSON.stringify(body), manifests, fail);

describe('an API page read into cells', () => {
  it('gives the cells the schema and the cell conversion give, waste lines included', () => {
    const body = { totalElements: ' 2', content: [manifest(), manifest({ shipped_date: undefined })] };
    const parsed = ManifestList.parse(body);
    const page = read(body);
    expect(page.totalElements).toBe(2);
    expect(page.cells).toEqual(
      parsed.content.map((row) =>
        MANIFEST_COLUMNS.map((column) => cellValue(column.kind, row[column.field as keyof typeof row])),
      ),
    );
    expect(page.lineCells).toEqual(
      parsed.content.flatMap((row) =>
        (row.waste_lines ?? []).map((wasteLine) =>
          WASTE_LINE_COLUMNS.map((column) => cellValue(column.kind, wasteLine[column.field])),
        ),
      ),
    );
    expect(page.cells[0]?.[MANIFEST_COLUMNS.findIndex((c) => c.field === 'total_waste_quantity_tons')]).toBe(
      1234.56,
    );
  });

  it("leaves a generator's 0 tons generated empty, as no report, and writes any other amount", () => {
    const generator = (total_waste: unknown) => ({ epa_handler_id: 'TXD000000001', total_waste });
    const total = GENERATOR_COLUMNS.findIndex((column) => column.field === 'total_waste');
    const page = readPageCells(
      JSON.stringify({ totalElements: 4, content: [0, ' 0.00', 12.5, '1,200'].map(generator) }),
      { columns: GENERATOR_COLUMNS, wasteLines: false },
      fail,
    );
    expect(page.cells.map((row) => row[total])).toEqual([null, null, 12.5, 1200]);
    // The same from rows already read (an offline pack's), and a manifest's 0 tons stay a 0.
    const row: Record<string, unknown> = generator(0);
    expect(GENERATOR_COLUMNS.map((column) => cellValue(column.kind, row[column.field]))).toEqual(
      GENERATOR_COLUMNS.map((column) => (column.field === 'epa_handler_id' ? 'TXD000000001' : null)),
    );
    const tons = MANIFEST_COLUMNS.find((column) => column.field === 'total_waste_quantity_tons');
    expect(tons && cellValue(tons.kind, 0)).toBe(0);
  });

  it('leaves the waste lines out when the file has no sheet for them', () => {
    const page = readPageCells(
      JSON.stringify({ totalElements: 1, content: [manifest()] }),
      { columns: MANIFEST_COLUMNS, wasteLines: false },
      fail,
    );
    expect(page.lineCells).toEqual([]);
  });

  const shape = (where: string, issue: string) =>
    `The server's answer does not match the tracker API${where}: ${issue}.`;

  it.each([
    ['not JSON', '{"content": [', 'The server answered with something that is not JSON.'],
    ['an empty body', '', shape('', 'expected an object, got null')],
    [
      'no count',
      JSON.stringify({ content: [] }),
      shape(' at totalElements', 'expected a number, got nothing'),
    ],
    [
      'rows that are not a list',
      JSON.stringify({ totalElements: 1, content: {} }),
      shape(' at content', 'expected a list, got {}'),
    ],
    [
      'a row that is not an object',
      JSON.stringify({ totalElements: 1, content: [manifest(), 'row'] }),
      shape(' at content.1', 'expected an object, got "row"'),
    ],
    [
      'a number as text that is not one',
      JSON.stringify({ totalElements: 1, content: [manifest({ total_waste_quantity_tons: 'lots' })] }),
      shape(' at content.0.total_waste_quantity_tons', 'expected a number, got "lots"'),
    ],
    [
      'a wrong type in a row',
      JSON.stringify({ totalElements: 1, content: [manifest(), manifest({ generator_name: 42 })] }),
      shape(' at content.1.generator_name', 'expected text, got 42'),
    ],
    [
      'a null in a row',
      JSON.stringify({ totalElements: 1, content: [manifest({ shipped_date: null })] }),
      shape(' at content.0.shipped_date', 'expected text, got null'),
    ],
    [
      'waste lines that are not a list',
      JSON.stringify({ totalElements: 1, content: [manifest({ waste_lines: 'none' })] }),
      shape(' at content.0.waste_lines', 'expected a list, got "none"'),
    ],
    [
      'a wrong type in a waste line',
      JSON.stringify({
        totalElements: 1,
        content: [manifest({ waste_lines: [line(), line({ container_count: true })] })],
      }),
      shape(' at content.0.waste_lines.1.container_count', 'expected a number, got true'),
    ],
    [
      'a waste line without a field',
      JSON.stringify({
        totalElements: 1,
        content: [manifest({ waste_lines: [line({ usdot_desc: undefined })] })],
      }),
      shape(' at content.0.waste_lines.0.usdot_desc', 'expected text, got nothing'),
    ],
    [
      'a text field longer than the API allows',
      JSON.stringify({ totalElements: 1, content: [manifest({ generator_name: 'x'.repeat(4001) })] }),
      shape(' at content.0.generator_name', 'a text field is at most 4000 characters'),
    ],
    [
      'more waste lines than a manifest has',
      JSON.stringify({ totalElements: 1, content: [manifest({ waste_lines: Array(1001).fill(line()) })] }),
      shape(' at content.0.waste_lines', 'a manifest has at most 1000 waste lines'),
    ],
  ])('refuses %s, naming the row and the field', (_, text, message) => {
    expect(() => readPageCells(text, manifests, fail)).toThrow(new Error(message));
  });

  it('checks only the fields it writes', () => {
    const page = readPageCells(
      JSON.stringify({ totalElements: 1, content: [{ epa_handler_id: 'CAD1', unexported: 42 }] }),
      { columns: GENERATOR_COLUMNS, wasteLines: false },
      fail,
    );
    expect(page.cells[0]?.[0]).toBe('CAD1');
  });
});
