import { useEffect, useRef } from 'react';
import {
  ManifestFilterFields,
  type ManifestLookupField,
  type ManifestRecord,
  type ManifestTotals,
} from '../../../shared/api/index.ts';
import { MANIFEST_COLUMNS } from '../../../shared/columns.ts';
import { DateRange } from '../components/date-range.tsx';
import { WasteLines } from '../components/waste-lines.tsx';
import { manifestLookup, manifestPage, manifestTotals } from '../data/tracker-data.ts';
import { formatCount, formatTons } from '../base/format.ts';
import { useNavigation } from '../state/navigation.ts';
import { MANIFEST_FILTER_LABELS } from '../../../shared/filter-labels.ts';
import { createWorkspaceStore } from '../state/workspace-store.ts';
import { Workspace, type WorkspaceDefinition } from './workspace.tsx';

export const useManifestWorkspace = createWorkspaceStore('manifests', ManifestFilterFields);

const profileOf = (row: ManifestRecord) => row.generator_epa_id;

export const MANIFESTS: WorkspaceDefinition<ManifestFilterFields, ManifestRecord, ManifestTotals> = {
  title: 'Manifests',
  noun: 'manifests',
  scope: 'manifests',
  store: useManifestWorkspace,
  columns: MANIFEST_COLUMNS,
  // Sized at 1280 px: fixed columns to their cells (12-character ids, dates, figures) or, where wider, to
  // their header with its sort arrow (grid-look.ts), the three names sharing the rest, so that every
  // default column, Containers last, is on screen.
  layout: {
    manifest_tracking_number: { width: 118 },
    generator_name: { flex: 3, long: true, profileOf },
    generator_epa_id: { width: 124, profileOf },
    generator_location_state: { width: 72 },
    transporter: { flex: 2.5, long: true },
    designated_facility_name: { flex: 3, long: true },
    shipped_date: { width: 92 },
    received_date: { width: 92 },
    total_waste_quantity_tons: { width: 90 },
    container_count: { width: 96 },
    waste_stream_count: { width: 90 },
  },
  // Each page carries its manifests' waste lines, so selecting a row shows them without another request.
  requiredFields: ['manifest_tracking_number', 'generator_epa_id', 'waste_lines'],
  members: [
    { member: 'generator_names', field: 'generator_name', label: MANIFEST_FILTER_LABELS.generator_names },
    {
      member: 'transporter_names',
      field: 'transporter_name',
      label: MANIFEST_FILTER_LABELS.transporter_names,
    },
    {
      member: 'designated_facility_names',
      field: 'designated_facility_name',
      label: MANIFEST_FILTER_LABELS.designated_facility_names,
    },
    { member: 'dot_id_nos', field: 'dot_id_no', label: MANIFEST_FILTER_LABELS.dot_id_nos },
    { member: 'container_types', field: 'container_type', label: MANIFEST_FILTER_LABELS.container_types },
    { member: 'handling_codes', field: 'handling_code', label: MANIFEST_FILTER_LABELS.handling_codes },
  ],
  scalars: [
    { member: 'shipped_date_start', label: MANIFEST_FILTER_LABELS.shipped_date_start },
    { member: 'shipped_date_end', label: MANIFEST_FILTER_LABELS.shipped_date_end },
    { member: 'received_date_start', label: MANIFEST_FILTER_LABELS.received_date_start },
    { member: 'received_date_end', label: MANIFEST_FILTER_LABELS.received_date_end },
  ],
  // The panel only offers this workspace's members, so the field is one of its lookups.
  lookup: (field, search, page, signal) => manifestLookup(field as ManifestLookupField, search, page, signal),
  totals: manifestTotals,
  boxes: [
    { label: 'Manifests shipped', value: (t) => formatCount(t.shipped_count) },
    { label: 'Total waste (tons)', value: (t) => formatTons(t.total_waste) },
    { label: 'Total containers', value: (t) => formatCount(t.container_count) },
    { label: 'Total manifest waste lines', value: (t) => formatCount(t.waste_streams) },
  ],
  page: manifestPage,
  rowId: (row) => row.manifest_tracking_number ?? '',
};

/**
 * A date typed digit by digit is a valid date several times over (0002-…, 0020-…, 2023-…); the filter
 * takes the last one after a pause instead of asking the server for each.
 */
const DATE_DEBOUNCE_MS = 350;

function DateFilters() {
  const fields = useManifestWorkspace((state) => state.filterFields);
  const setMembers = useManifestWorkspace((state) => state.setMembers);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);
  const later = (range: string, apply: () => void) => {
    clearTimeout(timers.current.get(range));
    timers.current.set(range, setTimeout(apply, DATE_DEBOUNCE_MS));
  };
  return (
    <>
      {(['shipped', 'received'] as const).map((range) => (
        <DateRange
          key={range}
          label={range === 'shipped' ? 'Shipped date' : 'Received date'}
          start={fields[`${range}_date_start`]}
          end={fields[`${range}_date_end`]}
          onChange={(start, end) =>
            later(range, () => setMembers({ [`${range}_date_start`]: start, [`${range}_date_end`]: end }))
          }
        />
      ))}
    </>
  );
}

export function ManifestsWorkspace({ hidden }: { hidden: boolean }) {
  const openProfile = useNavigation((state) => state.openProfile);
  return (
    <Workspace
      def={MANIFESTS}
      hidden={hidden}
      onRowActivated={(row) => row.generator_epa_id && openProfile(row.generator_epa_id)}
      filterExtras={<DateFilters />}
      below={(selection) => (
        <section className="detail-pane" aria-label="Waste lines">
          <WasteLines selection={selection} />
        </section>
      )}
    />
  );
}
