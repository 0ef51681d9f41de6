import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WasteLine, type ManifestRecord } from '../../shared/api/index.ts';
import { WasteLines } from '../../renderer/src/components/waste-lines.tsx';

/** Waste lines as the wire sends them (spec 2.6): container_count as text, numbers possibly comma-grouped. */
const WIRE_LINES: unknown[] = [
  {
    manifest_tracking_number: '000000001FLE',
    waste_line_number: 3,
    usdot_haz_indicator: 'N',
    usdot_id_number: 'NA3077',
    usdot_desc: 'Hazardous waste, solid, n.o.s.',
    container_count: '1,200',
    container_type_code: 'DM',
    epa_waste_indicator: 'N',
    waste_quantity_tons: ' 1,234.56',
    transporter: 'TX0000000001',
    federal_waste_codes: 'D008,F001',
    mmc_and_desc: 'H141-Storage',
  },
  {
    manifest_tracking_number: '000000001FLE',
    waste_line_number: '1',
    usdot_haz_indicator: 'Y',
    usdot_id_number: 'UN1263',
    usdot_desc: 'Paint, 3, PG II',
    container_count: '2',
    container_type_code: 'DF',
    epa_waste_indicator: 'Y',
    waste_quantity_tons: 0.5,
    transporter: 'TX0000000002',
    federal_waste_codes: 'D001',
    mmc_and_desc: 'H061-Fuel blending',
  },
  {
    manifest_tracking_number: '000000001FLE',
    waste_line_number: 2,
    usdot_haz_indicator: 'Y',
    usdot_id_number: 'UN1993',
    usdot_desc: 'Flammable liquid, n.o.s.',
    container_count: '10',
    container_type_code: 'TT',
    epa_waste_indicator: 'Y',
    waste_quantity_tons: '12',
    transporter: 'TX0000000003',
    federal_waste_codes: '',
    mmc_and_desc: 'H040-Incineration',
  },
];

function manifest(lines: unknown[] | undefined): ManifestRecord {
  return {
    manifest_tracking_number: '000000001FLE',
    ...(lines && { waste_lines: lines.map((line) => WasteLine.parse(line)) }),
  };
}

const HEADERS = [
  'Line',
  'Hazardous (DOT)',
  'DOT ID',
  'DOT description',
  'Containers',
  'Container type',
  'EPA waste',
  'Quantity (tons)',
  'Transporter',
  'Federal waste codes',
  'Management method',
];

function bodyRows(): string[][] {
  const [, ...rows] = screen.getAllByRole<HTMLTableRowElement>('row');
  return rows.map((row) => Array.from(row.cells, (cell) => cell.textContent ?? ''));
}

afterEach(cleanup);

describe('WasteLines', () => {
  it('asks for a selection when no manifest is selected', () => {
    render(<WasteLines selection={null} />);
    expect(screen.getByText('Select a manifest to see its waste lines.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says it is loading while the manifest has no waste_lines field yet', () => {
    render(<WasteLines selection={{ row: manifest(undefined) }} />);
    expect(screen.getByRole('status').textContent).toBe('Loading waste lines…');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says so when the manifest has no waste lines', () => {
    render(<WasteLines selection={{ row: manifest([]) }} />);
    expect(screen.getByText('This manifest has no waste lines.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('captions the table and wraps it in a focusable region of the same name', () => {
    render(<WasteLines selection={{ row: manifest(WIRE_LINES) }} />);
    const name = 'Waste lines of manifest 000000001FLE';
    const region = screen.getByRole('region', { name });
    expect(region.tabIndex).toBe(0);
    const table = within(region).getByRole('table', { name });
    expect(table.querySelector('caption')?.textContent).toBe(name);
  });

  it('has one readable column header per waste line field but the tracking number', () => {
    render(<WasteLines selection={{ row: manifest(WIRE_LINES) }} />);
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(HEADERS);
    expect(headers.every((header) => header.getAttribute('scope') === 'col')).toBe(true);
  });

  it('gives a column of long text room to read, and the short ones only what they need', () => {
    const long = {
      ...(WIRE_LINES[0] as object),
      usdot_desc: 'UN1759, Waste Corrosive solids, n.o.s., 8, PG II',
    };
    render(<WasteLines selection={{ row: manifest([long, ...WIRE_LINES.slice(1)]) }} />);
    const [first] = screen.getAllByRole<HTMLTableRowElement>('row').slice(1);
    const prose = Array.from(first?.cells ?? [], (cell, index) => [
      HEADERS[index],
      cell.classList.contains('prose'),
    ]);
    expect(prose.filter(([, wide]) => wide).map(([header]) => header)).toEqual(['DOT description']);
  });

  it('sorts by line number and formats counts, tons and Y/N flags', () => {
    render(<WasteLines selection={{ row: manifest(WIRE_LINES) }} />);
    expect(bodyRows()).toEqual([
      [
        '1',
        'Yes',
        'UN1263',
        'Paint, 3, PG II',
        '2',
        'DF',
        'Yes',
        '0.50',
        'TX0000000002',
        'D001',
        'H061-Fuel blending',
      ],
      [
        '2',
        'Yes',
        'UN1993',
        'Flammable liquid, n.o.s.',
        '10',
        'TT',
        'Yes',
        '12.00',
        'TX0000000003',
        '—',
        'H040-Incineration',
      ],
      [
        '3',
        'No',
        'NA3077',
        'Hazardous waste, solid, n.o.s.',
        '1,200',
        'DM',
        'No',
        '1,234.56',
        'TX0000000001',
        'D008, F001',
        'H141-Storage',
      ],
    ]);
  });

  it('says which manifest it is looking for while new results arrive, and that it left them when it did', () => {
    const { rerender } = render(<WasteLines selection={{ pending: manifest(WIRE_LINES) }} />);
    expect(screen.getByRole('status').textContent).toBe(
      'Looking for manifest 000000001FLE among the new results…',
    );
    expect(screen.queryByRole('table')).toBeNull();
    rerender(<WasteLines selection={{ left: manifest(WIRE_LINES) }} />);
    expect(screen.getByRole('status').textContent).toBe(
      'The new results do not show manifest 000000001FLE, so its waste lines are no longer shown. Select a manifest to see its waste lines.',
    );
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('heads each row with its line number', () => {
    render(<WasteLines selection={{ row: manifest(WIRE_LINES) }} />);
    expect(screen.getAllByRole('rowheader').map((header) => header.textContent)).toEqual(['1', '2', '3']);
  });
});
