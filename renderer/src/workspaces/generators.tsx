import {
  GeneratorFilterFields,
  type GeneratorLookupField,
  type GeneratorRecord,
  type GeneratorTotals,
} from '../../../shared/api/index.ts';
import { GENERATOR_COLUMNS } from '../../../shared/columns.ts';
import { generatorLookup, generatorPage, generatorTotals } from '../data/tracker-data.ts';
import { formatCount, formatTons } from '../format.ts';
import { useNavigation } from '../state/navigation.ts';
import { GENERATOR_FILTER_LABELS } from '../../../shared/filter-labels.ts';
import { createWorkspaceStore } from '../state/workspace-store.ts';
import { Workspace, type WorkspaceDefinition } from './workspace.tsx';

export const useGeneratorWorkspace = createWorkspaceStore('generators', GeneratorFilterFields);

const profileOf = (row: GeneratorRecord) => row.epa_handler_id;

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
    { member: 'shippedYears', field: 'shipped_year', label: GENERATOR_FILTER_LABELS.shippedYears },
    { member: 'states', field: 'generator_state', label: GENERATOR_FILTER_LABELS.states },
    { member: 'cities', field: 'generator_city', label: GENERATOR_FILTER_LABELS.cities },
    { member: 'names', field: 'generator_name', label: GENERATOR_FILTER_LABELS.names },
    { member: 'ids', field: 'epa_handler_id', label: GENERATOR_FILTER_LABELS.ids },
    { member: 'naics', field: 'naics', label: GENERATOR_FILTER_LABELS.naics },
    { member: 'statuses', field: 'status', label: GENERATOR_FILTER_LABELS.statuses },
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
