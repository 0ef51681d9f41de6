/**
 * The EPA tables the importer reads and the columns it takes from each (docs/import.md lists them). A
 * header names a column as EPA writes it (`MANIFEST TRACKING NUMBER`), as the public DDL names its content
 * (`ManifestTrackingNumber`), or with underscores as scripts rewrite it (`MANIFEST_TRACKING_NUMBER`): names
 * are compared with case, spaces and punctuation ignored, so each spelling of one name matches. Unknown
 * columns are ignored and listed in the summary.
 */

export type TableName =
  | 'EM_MANIFEST'
  | 'EM_WASTE_LINE'
  | 'EM_TRANSPORTER'
  | 'EM_FEDERAL_WASTE_CODE'
  | 'HD_REPORTING'
  | 'HD_HANDLER'
  | 'HD_NAICS';

/** Which column each field is read from: the names it may have, EPA's literal header first. */
export type Columns = Record<string, readonly string[]>;

export interface Layout {
  table: TableName;
  columns: Columns;
  /** Fields without which no row of the table means anything: a header lacking one refuses the file. */
  required: readonly string[];
}

const address = (prefix: string, literal: string): Columns => ({
  [`${prefix}StreetNumber`]: [`${literal} STREET NUMBER`, `${prefix}StreetNumber`],
  [`${prefix}Street1`]: [`${literal} STREET1`, `${prefix}Street1`],
  [`${prefix}Street2`]: [`${literal} STREET2`, `${prefix}Street2`],
  [`${prefix}City`]: [`${literal} CITY`, `${prefix}City`],
  [`${prefix}State`]: [`${literal} STATE`, `${prefix}State`],
  [`${prefix}Zip`]: [`${literal} ZIP`, `${prefix}Zip`, `${prefix}ZipCode`],
});

const TRACKING = ['MANIFEST TRACKING NUMBER', 'ManifestTrackingNumber'];
const LINE = ['WASTE LINE NUMBER', 'WasteLineNumber', 'LINE NUMBER'];

export const LAYOUTS: readonly Layout[] = [
  {
    table: 'EM_MANIFEST',
    required: ['tracking', 'generatorId'],
    columns: {
      tracking: TRACKING,
      updated: ['UPDATED DATE', 'LastUpdatedDate', 'UpdatedDate'],
      shipped: ['SHIPPED DATE', 'ShippedDate'],
      received: ['RECEIVED DATE', 'ReceivedDate'],
      status: ['STATUS', 'ManifestStatus'],
      generatorId: ['GENERATOR ID', 'GeneratorEPAID', 'GeneratorID'],
      generatorName: ['GENERATOR NAME', 'GeneratorName'],
      ...address('GeneratorMail', 'GENERATOR MAIL'),
      ...address('GeneratorLocation', 'GENERATOR LOCATION'),
      facilityId: ['DES FACILITY ID', 'DesignatedFacilityEPAID', 'DesignatedFacilityID'],
      facilityName: ['DES FACILITY NAME', 'DesignatedFacilityName'],
      totalTons: ['TOTAL QUANTITY TONS', 'TotalWasteQuantityInTons', 'TotalQuantityTons'],
      totalKilograms: ['TOTAL QUANTITY KILOGRAMS', 'TotalWasteQuantityInKilograms', 'TotalQuantityKilograms'],
    },
  },
  {
    table: 'EM_WASTE_LINE',
    required: ['tracking', 'line'],
    columns: {
      tracking: TRACKING,
      line: LINE,
      dotHazardous: ['USDOT HAZARDOUS INDICATOR', 'USDOTHazardousIndicator'],
      dotId: ['USDOT ID NUMBER', 'USDOTIDNumber'],
      dotDescription: ['USDOT DESCRIPTION', 'USDOTDescription'],
      nonHazardousDescription: ['NON HAZARDOUS WASTE DESCRIPTION', 'NonHazardousWasteDescription'],
      containers: ['NUMBER OF CONTAINERS', 'NumberofContainers'],
      containerType: ['CONTAINER TYPE CODE', 'ContainerTypeCode'],
      quantity: ['WASTE QUANTITY', 'WasteQuantity'],
      unit: ['QUANTITY UNIT OF MEASURE CODE', 'QuantityUnitofMeasureCode'],
      tons: ['QUANTITY TONS', 'WasteQuantityTons'],
      kilograms: ['QUANTITY KILOGRAMS', 'WasteQuantityKilograms'],
      density: ['WASTE DENSITY', 'WasteDensity'],
      densityUnit: ['WASTE DENSITY UNIT OF MEASURE CODE', 'WasteDensityUnitofMeasureCode'],
      federalCodes: ['FEDERAL WASTE CODES', 'FederalWasteCodes'],
      methodCode: ['MANAGEMENT METHOD CODE', 'ManagementMethodCode'],
      methodDescription: ['MANAGEMENT METHOD DESCRIPTION', 'ManagementMethodDescription'],
      epaWaste: ['EPA WASTE INDICATOR', 'EPAWasteIndicator'],
    },
  },
  {
    table: 'EM_TRANSPORTER',
    required: ['tracking', 'order'],
    columns: {
      tracking: TRACKING,
      order: ['TRANSPORTER LINE NUMBER', 'TransporterLineNumber', 'TRANSPORTER ORDER'],
      id: ['TRANSPORTER ID', 'TransporterEPAID', 'TransporterID'],
      name: ['TRANSPORTER NAME', 'TransporterName'],
    },
  },
  {
    table: 'EM_FEDERAL_WASTE_CODE',
    required: ['tracking', 'line', 'code'],
    columns: {
      tracking: TRACKING,
      line: LINE,
      code: ['FEDERAL WASTE CODE', 'FederalWasteCode'],
    },
  },
  {
    table: 'HD_REPORTING',
    required: ['id'],
    columns: {
      id: ['HANDLER ID', 'EPAHandlerID'],
      name: ['HANDLER NAME', 'HandlerName'],
      street1: ['LOCATION STREET1', 'LocationStreet1'],
      street2: ['LOCATION STREET2', 'LocationStreet2'],
      city: ['LOCATION CITY', 'LocationCity'],
      state: ['LOCATION STATE', 'LocationState'],
      zip: ['LOCATION ZIP', 'LocationZipCode', 'LocationZip'],
      naics: ['NAIC1', 'NAICS1', 'PrimaryNAICS'],
      fedGenerator: ['FED WASTE GENERATOR', 'FederalWasteGeneratorCode'],
      genStatus: ['GENSTATUS'],
      activeSite: ['ACTIVE SITE'],
      landType: ['LAND TYPE', 'LandType'],
      shortTerm: ['SHORT TERM GENERATOR', 'ShortTermGeneratorActivity'],
      importer: ['IMPORTER', 'ImporterActivity'],
      mixedWaste: ['MIXED WASTE GENERATOR', 'MixedWasteGenerator'],
      transporter: ['TRANSPORTER', 'TransporterActivity'],
      transferFacility: ['TRANSFER FACILITY', 'TransferFacilityActivity'],
      latitude: ['LOCATION LATITUDE', 'LocationLatitude'],
      longitude: ['LOCATION LONGITUDE', 'LocationLongitude'],
      lastChange: ['HHANDLER LAST CHANGE', 'HANDLER LAST CHANGE'],
      received: ['RECEIVE DATE', 'ReceiveDate'],
    },
  },
  {
    table: 'HD_HANDLER',
    required: ['id', 'current'],
    columns: {
      id: ['HANDLER ID', 'EPAHandlerID'],
      current: ['CURRENT RECORD', 'CurrentRecord'],
      received: ['RECEIVE DATE', 'ReceiveDate'],
      name: ['HANDLER NAME', 'HandlerName'],
      ...address('Location', 'LOCATION'),
      ...address('Mailing', 'MAILING'),
      contactFirst: ['CONTACT FIRST NAME', 'ContactFirstName'],
      contactLast: ['CONTACT LAST NAME', 'ContactLastName'],
      contactPhone: ['CONTACT TELEPHONE NUMBER', 'ContactTelephoneNumber'],
      contactEmail: ['CONTACT EMAIL ADDRESS', 'ContactEmailAddress'],
      fedGenerator: ['FEDERAL WASTE GENERATOR CODE', 'FederalWasteGeneratorCode', 'FED WASTE GENERATOR'],
      landType: ['LAND TYPE', 'LandType'],
      shortTerm: ['SHORT TERM GENERATOR ACTIVITY', 'ShortTermGeneratorActivity'],
      importer: ['IMPORTER ACTIVITY', 'ImporterActivity'],
      mixedWaste: ['MIXED WASTE GENERATOR', 'MixedWasteGenerator'],
      transporter: ['TRANSPORTER ACTIVITY', 'TransporterActivity'],
      transferFacility: ['TRANSFER FACILITY ACTIVITY', 'TransferFacilityActivity'],
      publicNotes: ['PUBLIC NOTES', 'PublicNotes'],
      latitude: ['LOCATION LATITUDE', 'LocationLatitude'],
      longitude: ['LOCATION LONGITUDE', 'LocationLongitude'],
    },
  },
  {
    table: 'HD_NAICS',
    required: ['id', 'code'],
    columns: {
      id: ['HANDLER ID', 'EPAHandlerID'],
      sequence: ['NAICS SEQUENCE NUMBER', 'NAICSSequenceNumber'],
      code: ['NAICS CODE', 'NAICSCode'],
    },
  },
];

/** A header name as compared: upper case, letters and digits only. */
export function columnKey(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** The table a file name says (`EM_WASTE_LINE_26.csv`, `hd_reporting.zip`), if any. */
export function tableOfName(fileName: string): TableName | undefined {
  const base = (fileName.split(/[\\/]/).at(-1) ?? '').toUpperCase();
  const stem = base.replace(/\.(CSV|TXT|ZIP)$/, '').replace(/[_-]?\d+$/, '');
  return LAYOUTS.find((layout) => layout.table === stem)?.table;
}

/** A header read against one layout: each field's position, and the columns no field reads. */
export interface HeaderMap {
  layout: Layout;
  positions: Map<string, number>;
  unknown: string[];
  missing: string[];
  /** Fields in the header: every row must have as many. */
  width: number;
}

export function mapHeader(layout: Layout, header: readonly string[]): HeaderMap {
  const byKey = new Map<string, number>();
  header.forEach((name, index) => {
    const key = columnKey(name);
    if (key !== '' && !byKey.has(key)) byKey.set(key, index);
  });
  const positions = new Map<string, number>();
  const used = new Set<number>();
  for (const [field, names] of Object.entries(layout.columns)) {
    for (const name of names) {
      const index = byKey.get(columnKey(name));
      if (index !== undefined) {
        positions.set(field, index);
        used.add(index);
        break;
      }
    }
  }
  return {
    layout,
    positions,
    unknown: header.filter((name, index) => !used.has(index) && name.trim() !== ''),
    missing: layout.required.filter((field) => !positions.has(field)),
    width: header.length,
  };
}

/**
 * The layout a header fits: the file name's table when its required columns are there, else the table
 * whose required columns are all present and that reads the most of the header. Undefined, with what
 * was looked for, when none fits.
 */
export function detectLayout(
  fileName: string,
  header: readonly string[],
): { header: HeaderMap } | { error: string } {
  const named = tableOfName(fileName);
  const maps = LAYOUTS.map((layout) => mapHeader(layout, header));
  const byName = maps.find((map) => map.layout.table === named);
  if (byName && byName.missing.length === 0) return { header: byName };
  const fitting = maps
    .filter((map) => map.missing.length === 0)
    .sort((a, b) => b.positions.size - a.positions.size);
  const best = fitting[0];
  if (best && !byName) return { header: best };
  if (byName) {
    const names = byName.missing.map((field) => `"${byName.layout.columns[field]?.[0] ?? field}"`);
    return { error: `the header of this ${named} file has no ${names.join(', ')} column` };
  }
  return {
    error: `the header matches none of ${LAYOUTS.map((layout) => layout.table).join(', ')} (name the file after its table, e.g. EM_MANIFEST.csv)`,
  };
}
