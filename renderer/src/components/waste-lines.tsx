import { WASTE_LINE_FIELDS, type ManifestRecord, type WasteLine } from '../../../shared/api/index.ts';
import { formatCount, formatTons } from '../format.ts';
import './manifest-parts.css';

/** Every waste line field but the tracking number, which the caption already names. */
type ShownField = Exclude<(typeof WASTE_LINE_FIELDS)[number], 'manifest_tracking_number'>;

type Column<F extends ShownField> = {
  header: string;
  numeric: boolean;
  format: (value: WasteLine[F]) => string;
};

function text(value: string): string {
  return value.trim() || '—';
}

function yesNo(flag: string): string {
  const normalised = flag.trim().toUpperCase();
  if (normalised === 'Y') return 'Yes';
  if (normalised === 'N') return 'No';
  return text(flag);
}

/** The wire joins codes with bare commas; a space after each lets a long list wrap. */
function codeList(codes: string): string {
  return text(
    codes
      .split(',')
      .map((code) => code.trim())
      .filter((code) => code !== '')
      .join(', '),
  );
}

/** Spec 2.6, one column per field; a mapped type so a field added to the spec cannot be left without one. */
const COLUMNS: { [F in ShownField]: Column<F> } = {
  waste_line_number: { header: 'Line', numeric: true, format: formatCount },
  usdot_haz_indicator: { header: 'Hazardous (DOT)', numeric: false, format: yesNo },
  usdot_id_number: { header: 'DOT ID', numeric: false, format: text },
  usdot_desc: { header: 'DOT description', numeric: false, format: text },
  container_count: { header: 'Containers', numeric: true, format: formatCount },
  container_type_code: { header: 'Container type', numeric: false, format: text },
  epa_waste_indicator: { header: 'EPA waste', numeric: false, format: yesNo },
  waste_quantity_tons: { header: 'Quantity (tons)', numeric: true, format: formatTons },
  transporter: { header: 'Transporter', numeric: false, format: text },
  federal_waste_codes: { header: 'Federal waste codes', numeric: false, format: codeList },
  mmc_and_desc: { header: 'Management method', numeric: false, format: text },
};

function cell<F extends ShownField>(field: F, line: WasteLine): string {
  return COLUMNS[field].format(line[field]);
}

const SHOWN = WASTE_LINE_FIELDS.filter((field): field is ShownField => field !== 'manifest_tracking_number');

/** The waste lines (spec 2.6) of the manifest selected in the grid. */
export function WasteLines({ manifest }: { manifest: ManifestRecord | undefined }) {
  if (!manifest) return <p className="waste-lines-note">Select a manifest to see its waste lines.</p>;
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

  return (
    // Focusable so keyboard users can scroll the wide table sideways.
    <div className="waste-lines" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {SHOWN.map((field) => (
              <th key={field} scope="col" className={COLUMNS[field].numeric ? 'numeric' : undefined}>
                {COLUMNS[field].header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((line, index) => (
            <tr key={`${line.waste_line_number}:${index}`}>
              {SHOWN.map((field) => {
                const className = COLUMNS[field].numeric ? 'numeric' : undefined;
                return field === 'waste_line_number' ? (
                  <th key={field} scope="row" className={className}>
                    {cell(field, line)}
                  </th>
                ) : (
                  <td key={field} className={className}>
                    {cell(field, line)}
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
