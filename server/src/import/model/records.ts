/**
 * What the importer hands a database: EPA's rows read, checked and mapped to the tracker's terms (tons,
 * YYYY-MM-DD, Y/N flags), independent of any database. The readers and mappers (csv-reader.ts,
 * json-reader.ts, epa-tables.ts, emanifest-json.ts) produce these; a sink (sink.ts) stores them. Field by
 * field, where each comes from is in docs/import.md.
 */

import { LIMITS } from '../../../../shared/api/limits.ts';

/** Where a row came from, for the report: the file, its first physical line and the line as read. */
export interface Origin {
  file: string;
  line: number;
  raw: string;
}

/** U+0000: PostgreSQL's text refuses it and SQLite's text functions stop at it, so a value holding it is refused. */
export const NUL = '\u0000';
export const NUL_REASON = 'holds a NUL character (U+0000), which no database text can hold';

/**
 * The most the API's clients read (shared/api/limits.ts): a text field, and a manifest's waste lines. A row
 * past them would be stored and served, and the app refuses every page that holds such a row, so the import
 * refuses the row; numbering a manifest's lines from 1 to LIMITS.wasteLinesMax bounds how many it has.
 */
export const TEXT_TOO_LONG = `longer than ${LIMITS.fieldTextMax.toLocaleString('en-US')} characters, the most a text field of the API holds`;
export const LINE_NUMBER_OUT_OF_RANGE = `not a waste line number: one is a whole number from 1 to ${LIMITS.wasteLinesMax.toLocaleString('en-US')}, the most waste lines the API gives a manifest`;

/** Whether `number` can number a waste line (LINE_NUMBER_OUT_OF_RANGE). */
export const isWasteLineNumber = (number: number): boolean =>
  Number.isInteger(number) && number >= 1 && number <= LIMITS.wasteLinesMax;

/** A row as read, as the report and the pending rows keep it: a NUL shown as ␀ (U+2400). */
export const storableRaw = (raw: string): string => (raw.includes(NUL) ? raw.replaceAll(NUL, '\u2400') : raw);

export interface Address {
  streetNumber: string;
  street1: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
}

export const EMPTY_ADDRESS: Address = {
  streetNumber: '',
  street1: '',
  street2: '',
  city: '',
  state: '',
  zip: '',
};

/** Which source a generator's own details came from: a handler file, or only the manifests naming it. */
export type GeneratorSource = 'handler' | 'manifest';

export interface GeneratorRecord {
  epaHandlerId: string;
  name: string;
  location: Address;
  mailing: Address;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  /** NAICS codes, the primary first; each active unless the source says otherwise. */
  naics: { code: string; active: boolean }[];
  /** The federal generator status as the tracker codes it (LQG, SQG, VSQG, N); '' when the source has none. */
  federalGeneratorCode: string;
  /** Its description (Large Quantity Generator, …). */
  federalGeneratorStatus: string;
  landType: string;
  shortTermGenerator: string;
  mixedWasteGenerator: string;
  transporter: string;
  transferFacility: string;
  importer: string;
  latitude: string;
  longitude: string;
  publicNotes: string;
  stateHandlerId: string;
  /** 'Active', 'Inactive' or ''. */
  registrationStatus: string;
  /** The source's own change date (YYYY-MM-DD); a newer one replaces an older, '' always loses. */
  updated: string;
  source: GeneratorSource;
}

export interface WasteLineRecord {
  trackingNumber: string;
  lineNumber: number;
  dotHazardous: string;
  dotIdNumber: string;
  dotDescription: string;
  containerCount: number;
  containerType: string;
  epaWaste: string;
  /** Tons as the source gives them or as its unit and density convert; undefined when neither says. */
  tons: number | undefined;
  federalWasteCodes: string[];
  managementMethodCode: string;
  managementMethodDescription: string;
}

export interface TransporterRecord {
  trackingNumber: string;
  order: number;
  epaId: string;
  name: string;
}

export interface ManifestRecord {
  trackingNumber: string;
  /** YYYY-MM-DD or '' when the source has no change date. */
  updatedDate: string;
  shippedDate: string;
  receivedDate: string;
  generator: GeneratorRecord;
  facilityEpaId: string;
  facilityName: string;
  /** The manifest's own total; undefined to sum its lines. */
  totalTons: number | undefined;
  /** From e-Manifest JSON, which carries the whole manifest: its transporters and lines replace any stored. */
  transporters?: TransporterRecord[];
  lines?: WasteLineRecord[];
}

/** One row of EM_FEDERAL_WASTE_CODE: a code on one waste line. */
export interface WasteCodeRecord {
  trackingNumber: string;
  lineNumber: number;
  code: string;
}

/** One row of HD_NAICS: a NAICS code of one handler's source record. */
export interface NaicsRecord {
  epaHandlerId: string;
  code: string;
  /** 1 for the primary code. */
  sequence: number;
}

export type ImportRecord =
  | { kind: 'generator'; record: GeneratorRecord; origin: Origin }
  | { kind: 'manifest'; record: ManifestRecord; origin: Origin }
  | { kind: 'wasteLine'; record: WasteLineRecord; origin: Origin }
  | { kind: 'transporter'; record: TransporterRecord; origin: Origin }
  | { kind: 'wasteCode'; record: WasteCodeRecord; origin: Origin }
  | { kind: 'naics'; record: NaicsRecord; origin: Origin };

/** A row that is not stored, with why: it goes to the report whole. */
export interface Rejection extends Origin {
  column: string;
  reason: string;
}

/** A generator with nothing but its id and name: the rest is filled by whatever the source gives. */
export function bareGenerator(epaHandlerId: string, name: string): GeneratorRecord {
  return {
    epaHandlerId,
    name,
    location: EMPTY_ADDRESS,
    mailing: EMPTY_ADDRESS,
    contactName: '',
    contactPhone: '',
    contactEmail: '',
    naics: [],
    federalGeneratorCode: '',
    federalGeneratorStatus: '',
    landType: '',
    shortTermGenerator: '',
    mixedWasteGenerator: '',
    transporter: '',
    transferFacility: '',
    importer: '',
    latitude: '',
    longitude: '',
    publicNotes: '',
    stateHandlerId: '',
    registrationStatus: '',
    updated: '',
    source: 'manifest',
  };
}
