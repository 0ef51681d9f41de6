/**
 * Writes a tracker database's rows as EPA's bulk files would carry them: EM_MANIFEST, EM_TRANSPORTER,
 * EM_WASTE_LINE (in numbered parts) and HD_REPORTING, every field quoted and separated by `","`, CRLF line
 * ends, the headers as docs/import.md lists them. Used to make files of any size in EPA's layout from the
 * demo generator's data (bench:import, and the tests that import them and compare with the source).
 * Rows are streamed from SQLite to the files, so a million manifests take the memory of a few rows.
 */
import type { Database } from 'better-sqlite3';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';

function quoted(values: readonly (string | number | null | undefined)[]): string {
  return `"${values.map((value) => String(value ?? '').replaceAll('"', '""')).join('","')}"\r\n`;
}

class CsvFile {
  private readonly out: WriteStream;
  private pending = '';
  rows = 0;

  constructor(path: string, header: readonly string[]) {
    this.out = createWriteStream(path);
    this.pending = quoted(header);
  }

  async row(values: readonly (string | number | null | undefined)[]): Promise<void> {
    this.pending += quoted(values);
    this.rows += 1;
    if (this.pending.length > 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    const text = this.pending;
    this.pending = '';
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    this.out.end();
    await once(this.out, 'finish');
  }
}

const MANIFEST_HEADER = [
  'MANIFEST TRACKING NUMBER',
  'UPDATED DATE',
  'SHIPPED DATE',
  'RECEIVED DATE',
  'STATUS',
  'GENERATOR ID',
  'GENERATOR NAME',
  'GENERATOR MAIL STREET1',
  'GENERATOR MAIL STREET2',
  'GENERATOR MAIL CITY',
  'GENERATOR MAIL STATE',
  'GENERATOR MAIL ZIP',
  'GENERATOR LOCATION CITY',
  'GENERATOR LOCATION STATE',
  'GENERATOR LOCATION ZIP',
  'GENERATOR CONTACT COMPANY NAME',
  'DES FACILITY ID',
  'DES FACILITY NAME',
  'DES FAC MAIL STATE',
  'DES FAC LOCATION STATE',
  'TOTAL QUANTITY TONS',
];

const TRANSPORTER_HEADER = [
  'MANIFEST TRACKING NUMBER',
  'TRANSPORTER LINE NUMBER',
  'TRANSPORTER ID',
  'TRANSPORTER NAME',
];

const WASTE_LINE_HEADER = [
  'MANIFEST TRACKING NUMBER',
  'WASTE LINE NUMBER',
  'USDOT HAZARDOUS INDICATOR',
  'USDOT ID NUMBER',
  'USDOT DESCRIPTION',
  'NUMBER OF CONTAINERS',
  'CONTAINER TYPE CODE',
  'QUANTITY TONS',
  'FEDERAL WASTE CODES',
  'STATE WASTE CODES',
  'MANAGEMENT METHOD CODE',
  'MANAGEMENT METHOD DESCRIPTION',
  'EPA WASTE INDICATOR',
  'BR FORM CODE',
];

const HANDLER_HEADER = [
  'HANDLER ID',
  'HANDLER NAME',
  'ACTIVITY LOCATION',
  'SOURCE TYPE',
  'STATE',
  'ACTIVE SITE',
  'LOCATION STREET1',
  'LOCATION STREET2',
  'LOCATION CITY',
  'LOCATION STATE',
  'LOCATION ZIP',
  'LAND TYPE',
  'NAIC1',
  'FED WASTE GENERATOR',
  'SHORT TERM GENERATOR',
  'IMPORTER',
  'MIXED WASTE GENERATOR',
  'TRANSPORTER',
  'TRANSFER FACILITY',
  'HHANDLER LAST CHANGE',
  'LOCATION LATITUDE',
  'LOCATION LONGITUDE',
];

const FED_WASTE_GENERATOR: Record<string, string> = { LQG: '1', SQG: '2', VSQG: '3', N: 'N' };

export interface EpaFiles {
  paths: string[];
  manifests: number;
  transporters: number;
  wasteLines: number;
  handlers: number;
}

/**
 * The database's rows as EPA files in `dir`; waste lines split into parts of `linesPerPart`.
 * `updatedDate` is every manifest's UPDATED DATE (default: its received date).
 */
export async function writeEpaFiles(
  db: Database,
  dir: string,
  options: {
    linesPerPart?: number;
    handlers?: boolean;
    updatedDate?: string;
    /** Only the first N manifests (by id) and their lines. */
    manifests?: number;
    /** Replaces each tracking number's three-letter suffix: the same manifests as new ones. */
    suffix?: string;
  } = {},
): Promise<EpaFiles> {
  const limit = options.manifests ?? Number.MAX_SAFE_INTEGER;
  const tracking = (number: unknown) =>
    options.suffix === undefined ? String(number) : `${String(number).slice(0, 9)}${options.suffix}`;
  const paths: string[] = [];
  let handlers = 0;
  if (options.handlers ?? true) {
    const path = join(dir, 'HD_REPORTING.csv');
    const file = new CsvFile(path, HANDLER_HEADER);
    const rows = db
      .prepare(
        `SELECT epa_handler_id, generator_name, location_state, registration_status, physical_address,
                location_street_2, location_city, location_zip, land_type, primary_naics_code,
                federal_generator_status_universe_code, short_term_generator_activity, importer_activity,
                mixed_waste_generator, transporter_activity, transfer_facility_activity,
                location_latitude, location_longitude
         FROM generators ORDER BY id`,
      )
      .raw()
      .iterate() as IterableIterator<string[]>;
    for (const [
      id,
      name,
      state,
      registration,
      street,
      street2,
      city,
      zip,
      land,
      naics,
      status,
      ...rest
    ] of rows) {
      const active = registration === 'Active' ? 'H----' : registration === 'Inactive' ? '-----' : '';
      const [shortTerm, importer, mixed, transporter, transfer, latitude, longitude] = rest;
      await file.row([
        id,
        name,
        state,
        'I',
        state,
        active,
        street,
        street2,
        city,
        state,
        zip,
        land,
        naics,
        FED_WASTE_GENERATOR[status ?? ''] ?? status,
        shortTerm,
        importer,
        mixed,
        transporter,
        transfer,
        '2024-01-15',
        latitude,
        longitude,
      ]);
    }
    await file.close();
    handlers = file.rows;
    paths.push(path);
  }

  const manifestFile = new CsvFile(join(dir, 'EM_MANIFEST.csv'), MANIFEST_HEADER);
  const transporterFile = new CsvFile(join(dir, 'EM_TRANSPORTER.csv'), TRANSPORTER_HEADER);
  const manifests = db
    .prepare(
      `SELECT m.manifest_tracking_number, m.received_date, m.shipped_date, m.generator_epa_id, m.generator_name,
              g.mail_street_1, g.mail_street_2, g.mail_city, g.mail_state, g.mail_zip, g.location_city,
              m.generator_location_state, g.location_zip, m.designated_facility_name, m.total_waste_quantity_tons,
              m.transporter, (SELECT w.transporter FROM waste_lines w WHERE w.manifest_id = m.id
                              ORDER BY w.waste_line_number LIMIT 1)
       FROM manifests m JOIN generators g ON g.id = m.generator_id WHERE m.id <= ? ORDER BY m.id`,
    )
    .raw()
    .iterate(limit) as IterableIterator<(string | number | null)[]>;
  for (const row of manifests) {
    const [number, received, shipped, epaId, name, ...rest] = row;
    const [
      mail1,
      mail2,
      mailCity,
      mailState,
      mailZip,
      city,
      state,
      zip,
      facility,
      tons,
      transporter,
      transporterId,
    ] = rest;
    await manifestFile.row([
      tracking(number),
      options.updatedDate ?? received,
      shipped,
      received,
      'Signed',
      epaId,
      name,
      mail1,
      mail2,
      mailCity,
      mailState,
      mailZip,
      city,
      state,
      zip,
      name,
      '',
      facility,
      '',
      '',
      tons,
    ]);
    if (transporter !== '')
      await transporterFile.row([tracking(number), 1, transporterId ?? '', transporter]);
  }
  await manifestFile.close();
  await transporterFile.close();
  paths.push(join(dir, 'EM_MANIFEST.csv'), join(dir, 'EM_TRANSPORTER.csv'));

  const linesPerPart = options.linesPerPart ?? 1_000_000;
  let part = 0;
  let lineFile: CsvFile | undefined;
  let wasteLines = 0;
  const lines = db
    .prepare(
      `SELECT m.manifest_tracking_number, w.waste_line_number, w.usdot_haz_indicator, w.usdot_id_number,
              w.usdot_desc, w.container_count, w.container_type_code, w.waste_quantity_tons,
              w.federal_waste_codes, w.management_method_code, w.mmc_and_desc, w.epa_waste_indicator
       FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id WHERE w.manifest_id <= ?
       ORDER BY w.manifest_id, w.waste_line_number`,
    )
    .raw()
    .iterate(limit) as IterableIterator<(string | number | null)[]>;
  for (const [manifest, number, haz, dot, desc, containers, type, tons, codes, method, text, epa] of lines) {
    if (!lineFile || lineFile.rows >= linesPerPart) {
      await lineFile?.close();
      const path = join(dir, `EM_WASTE_LINE_${part}.csv`);
      part += 1;
      paths.push(path);
      lineFile = new CsvFile(path, WASTE_LINE_HEADER);
    }
    const description = String(text).split(' - ').slice(1).join(' - ');
    await lineFile.row([
      tracking(manifest),
      number,
      haz,
      dot,
      desc,
      containers,
      type,
      tons,
      codes,
      '',
      method,
      description,
      epa,
      '',
    ]);
    wasteLines += 1;
  }
  await lineFile?.close();
  return { paths, manifests: manifestFile.rows, transporters: transporterFile.rows, wasteLines, handlers };
}
