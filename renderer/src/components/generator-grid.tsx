import { useMemo } from 'react';
import { AgGridReact } from 'ag-grid-react';
import {
  InfiniteRowModelModule,
  ModuleRegistry,
  themeQuartz,
  type ColDef,
  type IDatasource,
} from 'ag-grid-community';
import type { GeneratorRecord } from '../../../shared/api/index.ts';
import { generatorPage, type GeneratorQuery } from '../data/tracker-data.ts';
import { formatTons } from '../format.ts';

ModuleRegistry.registerModules([InfiniteRowModelModule]);

const PAGE_SIZE = 100;

const COLUMNS: ColDef<GeneratorRecord>[] = [
  { field: 'epa_handler_id', headerName: 'EPA ID', minWidth: 140 },
  { field: 'generator_name', headerName: 'Name', flex: 2, minWidth: 200 },
  { field: 'location_city', headerName: 'City' },
  { field: 'location_state', headerName: 'State', width: 90 },
  { field: 'primary_naics_code', headerName: 'NAICS' },
  { field: 'registration_status', headerName: 'Status' },
  {
    field: 'total_waste',
    headerName: 'Total waste (tons)',
    type: 'rightAligned',
    valueFormatter: (params) => (typeof params.value === 'number' ? formatTons(params.value) : ''),
  },
];

/** Server-side paged and sorted generators grid; one datasource per query so filters reset the cache. */
export function GeneratorGrid({ query }: { query: GeneratorQuery }) {
  const key = JSON.stringify(query);
  const datasource = useMemo<IDatasource>(() => {
    const parsed = JSON.parse(key) as GeneratorQuery;
    return {
      getRows: (params) => {
        const sortItem = params.sortModel[0];
        const sort = sortItem ? `${sortItem.colId} ${sortItem.sort}` : undefined;
        void generatorPage(parsed, Math.floor(params.startRow / PAGE_SIZE), PAGE_SIZE, sort).then(
          (answer) => {
            if (answer.ok) params.successCallback(answer.data.content, answer.data.totalElements);
            else params.failCallback();
          },
        );
      },
    };
  }, [key]);

  return (
    <div className="grid" style={{ height: 480 }}>
      <AgGridReact<GeneratorRecord>
        theme={themeQuartz}
        columnDefs={COLUMNS}
        defaultColDef={{ sortable: true, resizable: true, flex: 1, minWidth: 90 }}
        rowModelType="infinite"
        cacheBlockSize={PAGE_SIZE}
        datasource={datasource}
      />
    </div>
  );
}
