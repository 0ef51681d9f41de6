import type { ManifestRecord, WasteLine } from '../../../shared/api/index.ts';
import { WASTE_LINE_COLUMNS, isNumeric, type Column, type WasteLineField } from '../../../shared/columns.ts';
import { formatValue } from '../base/format.ts';
import type { GridSelection } from './grid-selection.ts';
import './manifest-parts.css';

/** Every waste line column but the tracking number, which the caption already names. */
const SHOWN = WASTE_LINE_COLUMNS.filter((column) => column.field !== 'manifest_tracking_number');

function cell(column: Column<WasteLineField>, line: WasteLine): string {
  return formatValue(column.kind, line[column.field]) || '—';
}

const SELECT = 'Select a manifest to see its waste lines.';

/** A column holding a value this long reads as prose: it gets room to wrap at a readable width. */
const LONG_TEXT = 32;

/** "manifest 826617874GBF", or "the manifest" for a row without its number. */
const named = (manifest: ManifestRecord) =>
  manifest.manifest_tracking_number === undefined
    ? 'the manifest you selected'
    : `manifest ${manifest.manifest_tracking_number}`;

/**
 * The waste lines (spec 2.6) of the manifest selected in the grid, only while it is among the grid's rows:
 * after a new filter or search, a manifest the new rows leave out is no longer shown, and the pane says so.
 */
export function WasteLines({ selection }: { selection: GridSelection<ManifestRecord> }) {
  if (selection === null) return <p className="waste-lines-note">{SELECT}</p>;
  if ('pending' in selection) {
    return (
      <p className="waste-lines-note" role="status">
        Looking for {named(selection.pending)} among the new results…
      </p>
    );
  }
  if ('left' in selection) {
    return (
      <p className="waste-lines-note" role="status">
        The new results do not show {named(selection.left)}, so its waste lines are no longer shown. {SELECT}
      </p>
    );
  }
  const manifest = selection.row;
  const lines = manifest.waste_lines;
  if (!lines) {
    return (
      <p className="waste-lines-note" role="status">
        Loading waste lines…
      </p>
    );
  }
  if (lines.length === 0) return <p className="waste-lines-note">This manifest has no waste lines.</p>;

  const caption =
    manifest.manifest_tracking_number === undefined
      ? 'Waste lines of the selected manifest'
      : `Waste lines of manifest ${manifest.manifest_tracking_number}`;
  const sorted = lines.toSorted((a, b) => a.waste_line_number - b.waste_line_number);
  const prose = new Set(
    SHOWN.filter((column) => sorted.some((line) => cell(column, line).length > LONG_TEXT)).map(
      (column) => column.field,
    ),
  );

  return (
    // Focusable so keyboard users can scroll the wide table sideways.
    <div className="waste-lines" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {SHOWN.map((column) => (
              <th key={column.field} scope="col" className={isNumeric(column.kind) ? 'numeric' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((line, index) => (
            <tr key={`${line.waste_line_number}:${index}`}>
              {SHOWN.map((column) => {
                const className = isNumeric(column.kind)
                  ? 'numeric'
                  : prose.has(column.field)
                    ? 'prose'
                    : undefined;
                return column.field === 'waste_line_number' ? (
                  <th key={column.field} scope="row" className={className}>
                    {cell(column, line)}
                  </th>
                ) : (
                  <td key={column.field} className={className}>
                    {cell(column, line)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
