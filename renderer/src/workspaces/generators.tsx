import {
  GeneratorFilterFields,
  type GeneratorLookupField,
  type GeneratorRecord,
  type GeneratorTotals,
} from '../../../shared/api/index.ts';
import { generatorLookup, generatorPage, generatorTotals } from '../data/tracker-data.ts';
import { formatCount, formatTons } from '../format.ts';
import { useNavigation } from '../state/navigation.ts';
import { createWorkspaceStore } from '../state/workspace-store.ts';
import { Workspace, type WorkspaceDefinition } from './workspace.tsx';

export const useGeneratorWorkspace = createWorkspaceStore('generators', GeneratorFilterFields);

const profileOf = (row: GeneratorRecord) => row.epa_handler_id;

export const GENERATORS: WorkspaceDefinition<GeneratorFilterFields, GeneratorRecord, GeneratorTotals> = {
  title: 'Generators',
  noun: 'generators',
  scope: 'generators',
  store: useGeneratorWorkspace,
  columns: [
    { field: 'epa_handler_id', headerName: 'EPA ID', kind: 'text', width: 150, profileOf },
    { field: 'generator_name', headerName: 'Name', kind: 'text', flex: 2, profileOf },
    { field: 'physical_address', headerName: 'Address', kind: 'text', flex: 2 },
    { field: 'location_street_number', headerName: 'Street number', kind: 'text' },
    { field: 'location_street_1', headerName: 'Street', kind: 'text' },
    { field: 'location_city', headerName: 'City', kind: 'text' },
    { field: 'location_state', headerName: 'State', kind: 'text', width: 90 },
    { field: 'location_zip', headerName: 'ZIP', kind: 'text', width: 100 },
    { field: 'contact_name', headerName: 'Contact', kind: 'text' },
    { field: 'contact_phone_number', headerName: 'Phone', kind: 'text' },
    { field: 'contact_email', headerName: 'Email', kind: 'text' },
    { field: 'primary_naics_code', headerName: 'NAICS', kind: 'text', width: 110 },
    { field: 'primary_naics_desc', headerName: 'NAICS description', kind: 'text', flex: 2 },
    { field: 'registration_status', headerName: 'Status', kind: 'text' },
    { field: 'state_handler_id', headerName: 'State ID', kind: 'text' },
    { field: 'total_waste', headerName: 'Total waste (tons)', kind: 'tons', width: 170 },
  ],
  defaultColumns: [
    'epa_handler_id',
    'generator_name',
    'location_city',
    'location_state',
    'primary_naics_code',
    'registration_status',
    'total_waste',
  ],
  requiredFields: ['epa_handler_id'],
  members: [
    { member: 'shippedYears', field: 'shipped_year', label: 'Shipped year' },
    { member: 'states', field: 'generator_state', label: 'State' },
    { member: 'cities', field: 'generator_city', label: 'City' },
    { member: 'names', field: 'generator_name', label: 'Generator name' },
    { member: 'ids', field: 'epa_handler_id', label: 'EPA ID' },
    { member: 'naics', field: 'naics', label: 'NAICS' },
    { member: 'statuses', field: 'status', label: 'Status' },
    { member: 'wasteCodes', field: 'epa_waste_code', label: 'Waste code' },
    { member: 'handlingCodes', field: 'mmc', label: 'Handling code' },
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
