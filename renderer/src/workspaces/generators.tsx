import {
  GeneratorFilterFields,
  type GeneratorLookupField,
  type GeneratorRecord,
  type GeneratorTotals,
} from '../../../shared/api/index.ts';
import { GENERATOR_COLUMNS } from '../../../shared/columns.ts';
import { STATUS_GROUPS } from '../../../shared/query/lookup.ts';
import { shippedYearsFromManifests } from '../data/lookup-extensions.ts';
import { generatorLookup, generatorPage, generatorTotals } from '../data/tracker-data.ts';
import { formatCount, formatTons } from '../base/format.ts';
import { useNavigation } from '../state/navigation.ts';
import { GENERATOR_FILTER_LABELS } from '../../../shared/filter-labels.ts';
import { createWorkspaceStore, type PickedTexts } from '../state/workspace-store.ts';
import { Workspace, type MatchColumns, type WorkspaceDefinition } from './workspace.tsx';

export const useGeneratorWorkspace = createWorkspaceStore('generators', GeneratorFilterFields);

const profileOf = (row: GeneratorRecord) => row.epa_handler_id;

/** The boxes a server that implements only the spec cannot fill from a lookup (docs/api.md "Spec-only mode"). */
const SHIPPED_YEARS_FALLBACK = {
  note: 'This server lists no shipped years, so these are the years from its first shipment to its last; a year may hold none.',
  derive: shippedYearsFromManifests,
};
const STATUSES_FALLBACK = { note: 'This server lists no status values, so there are none to pick from.' };

const NO_MATCH_COLUMNS: MatchColumns<GeneratorRecord> = { show: [], derived: [] };

/**
 * A Status filter matches a registration status or a federal generator status (docs/api.md). The rows
 * carry only the first, so it is shown whatever the columns chosen; with federal statuses picked, a column
 * says which one a row matched: the row's registration status is not among the picked values, so its
 * federal status is (with one picked, exactly that one).
 */
function statusMatchColumns(
  filterFields: GeneratorFilterFields,
  pickedTexts: PickedTexts,
): MatchColumns<GeneratorRecord> {
  const statuses = filterFields.statuses ?? [];
  if (statuses.length === 0) return NO_MATCH_COLUMNS;
  const federal = statuses.filter((value) => pickedTexts.statuses?.[value] === STATUS_GROUPS.federal);
  if (federal.length === 0) return { show: ['registration_status'], derived: [] };
  return {
    show: ['registration_status'],
    derived: [
      {
        after: 'registration_status',
        def: {
          colId: 'matched_federal_status',
          headerName: STATUS_GROUPS.federal,
          headerTooltip: `${STATUS_GROUPS.federal} the Status filter matched; blank where the row matched on its registration status`,
          sortable: false,
          minWidth: 120,
          flex: 1,
          valueGetter: ({ data }) =>
            data && !statuses.includes(data.registration_status ?? '') ? federal.join(' or ') : '',
        },
      },
    ],
  };
}

export const GENERATORS: WorkspaceDefinition<GeneratorFilterFields, GeneratorRecord, GeneratorTotals> = {
  title: 'Generators',
  noun: 'generators',
  scope: 'generators',
  store: useGeneratorWorkspace,
  columns: GENERATOR_COLUMNS,
  layout: {
    epa_handler_id: { width: 150, profileOf },
    generator_name: { flex: 2, minWidth: 140, long: true, profileOf },
    physical_address: { flex: 2, long: true },
    location_state: { width: 90 },
    location_zip: { width: 100 },
    primary_naics_code: { width: 110 },
    primary_naics_desc: { flex: 2, long: true },
    total_waste: { width: 170 },
  },
  requiredFields: ['epa_handler_id'],
  members: [
    {
      member: 'shippedYears',
      field: 'shipped_year',
      label: GENERATOR_FILTER_LABELS.shippedYears,
      fallback: SHIPPED_YEARS_FALLBACK,
    },
    { member: 'states', field: 'generator_state', label: GENERATOR_FILTER_LABELS.states },
    { member: 'cities', field: 'generator_city', label: GENERATOR_FILTER_LABELS.cities },
    { member: 'names', field: 'generator_name', label: GENERATOR_FILTER_LABELS.names },
    { member: 'ids', field: 'epa_handler_id', label: GENERATOR_FILTER_LABELS.ids },
    { member: 'naics', field: 'naics', label: GENERATOR_FILTER_LABELS.naics },
    {
      member: 'statuses',
      field: 'status',
      label: GENERATOR_FILTER_LABELS.statuses,
      grouped: true,
      fallback: STATUSES_FALLBACK,
    },
    { member: 'wasteCodes', field: 'epa_waste_code', label: GENERATOR_FILTER_LABELS.wasteCodes },
    { member: 'handlingCodes', field: 'mmc', label: GENERATOR_FILTER_LABELS.handlingCodes },
  ],
  // The panel only offers this workspace's members, so the field is one of its lookups.
  lookup: (field, search, page, signal) =>
    generatorLookup(field as GeneratorLookupField, search, page, signal),
  totals: generatorTotals,
  boxes: [
    { label: 'Manifests shipped', value: (t) => formatCount(t.shipped_count) },
    { label: 'Total tons', value: (t) => formatTons(t.epa_total) },
    { label: 'Total containers', value: (t) => formatCount(t.container_count) },
    { label: 'Total shippers', value: (t) => formatCount(t.mmc_count) },
  ],
  page: generatorPage,
  rowId: (row) => row.epa_handler_id ?? '',
  matchColumns: statusMatchColumns,
};

export function GeneratorsWorkspace({ hidden }: { hidden: boolean }) {
  const openProfile = useNavigation((state) => state.openProfile);
  return (
    <Workspace
      def={GENERATORS}
      hidden={hidden}
      onRowActivated={(row) => row.epa_handler_id && openProfile(row.epa_handler_id)}
    />
  );
}
