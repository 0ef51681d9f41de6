/**
 * An e-Manifest JSON value (EPA's manifest schema, emanifest.json) to import records: a manifest carries
 * its generator, designated facility, transporters and waste lines, so it is stored whole, its lines and
 * transporters replacing any stored. A site object (an `epaSiteId` without `wastes`, as RCRAInfo's site
 * services and haztrak's handler fixtures write it) is a generator. Paths read are listed in
 * docs/import.md.
 */
import { LIMITS } from '../../../shared/api/limits.ts';
import type { MappingContext } from './epa-rows.ts';
import {
  LINE_NUMBER_OUT_OF_RANGE,
  NUL,
  NUL_REASON,
  TEXT_TOO_LONG,
  bareGenerator,
  isWasteLineNumber,
  type Address,
  type GeneratorRecord,
  type ImportRecord,
  type Origin,
  type Rejection,
  type TransporterRecord,
  type WasteLineRecord,
} from './model/records.ts';
import { toTons } from './units.ts';
import {
  TRACKING_NUMBER,
  flag,
  readContainers,
  readDate,
  readNumber,
  readTimestamp,
  type Read,
} from './values.ts';

type Json = Record<string, unknown>;

const object = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

class JsonProblem extends Error {
  readonly path: string;
  constructor(path: string, reason: string) {
    super(reason);
    this.path = path;
  }
}

function text(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return '';
  if (value.includes(NUL)) throw new JsonProblem('', NUL_REASON);
  const trimmed = value.trim();
  if (trimmed.length > LIMITS.fieldTextMax) throw new JsonProblem('', TEXT_TOO_LONG);
  return trimmed;
}

/** The value at `path` as `reader` reads its text; a value it refuses rejects the manifest, saying why. */
function readAt<T>(reader: (text: string) => Read<T>, value: unknown, path: string): T {
  const read = reader(text(value));
  if (!read.ok) throw new JsonProblem(path, read.message);
  return read.value;
}

const date = (value: unknown, path: string): string =>
  readAt((found) => readDate(found.replace(/T.*$/, '')), value, path);

/** updatedDate with its time, where date() keeps a date alone (values.ts readTimestamp). */
const timestamp = (value: unknown, path: string): string => readAt(readTimestamp, value, path);

function number(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return readAt(readNumber, value, path);
}

const containers = (value: unknown, path: string): number | undefined => readAt(readContainers, value, path);

function address(value: unknown): Address {
  const json = object(value);
  return {
    streetNumber: text(json.streetNumber),
    street1: text(json.address1),
    street2: text(json.address2),
    city: text(json.city),
    state: text(object(json.state).code).toUpperCase(),
    zip: text(json.zip),
  };
}

/** A handler site (generator) object. */
function site(json: Json, path: string, updated: string): GeneratorRecord {
  const id = text(json.epaSiteId).toUpperCase();
  if (id === '') throw new JsonProblem(`${path}.epaSiteId`, `no ${path}.epaSiteId`);
  const generator = bareGenerator(id, text(json.name));
  const contact = object(json.contact);
  generator.location = address(json.siteAddress);
  generator.mailing = address(json.mailingAddress);
  generator.contactName = [text(contact.firstName), text(contact.lastName)].filter(Boolean).join(' ');
  generator.contactPhone = text(object(contact.phone).number);
  generator.contactEmail = text(contact.email);
  generator.updated = updated;
  return generator;
}

function wasteLine(
  json: Json,
  index: number,
  trackingNumber: string,
  context: MappingContext,
): WasteLineRecord {
  const path = `wastes[${index}]`;
  const lineNumber = number(json.lineNumber, `${path}.lineNumber`) ?? index + 1;
  if (!isWasteLineNumber(lineNumber)) throw new JsonProblem(`${path}.lineNumber`, LINE_NUMBER_OUT_OF_RANGE);
  const quantity = object(json.quantity);
  const br = object(json.brInfo);
  const dot = object(json.dotInformation);
  const amount = number(quantity.quantity, `${path}.quantity.quantity`);
  const density = number(br.density, `${path}.brInfo.density`);
  const unit = text(object(quantity.unitOfMeasurement).code);
  const method = object(json.managementMethod);
  return {
    trackingNumber,
    lineNumber,
    dotHazardous: flag(json.dotHazardous as boolean | undefined),
    dotIdNumber: text(object(dot.idNumber).code).toUpperCase(),
    dotDescription: text(dot.printedDotInformation) || text(json.wasteDescription),
    containerCount: containers(quantity.containerNumber, `${path}.quantity.containerNumber`) ?? 0,
    containerType: text(object(quantity.containerType).code).toUpperCase(),
    epaWaste: flag(json.epaWaste as boolean | undefined),
    tons:
      amount === undefined
        ? undefined
        : toTons(
            context.units,
            amount,
            unit,
            density === undefined
              ? undefined
              : { value: density, unit: text(object(br.densityUnitOfMeasurement).code) },
          ),
    federalWasteCodes: [
      ...new Set(
        array(object(json.hazardousWaste).federalWasteCodes)
          .map((code) => text(object(code).code).toUpperCase())
          .filter((code) => code !== ''),
      ),
    ],
    managementMethodCode: text(method.code).toUpperCase(),
    managementMethodDescription: text(method.description),
  };
}

function manifest(json: Json, origin: Origin, context: MappingContext): ImportRecord {
  const trackingNumber = text(json.manifestTrackingNumber).toUpperCase();
  if (trackingNumber === '') throw new JsonProblem('manifestTrackingNumber', 'no manifestTrackingNumber');
  if (!TRACKING_NUMBER.test(trackingNumber)) {
    throw new JsonProblem(
      'manifestTrackingNumber',
      `not a manifest tracking number (9 digits and 3 letters): "${trackingNumber}"`,
    );
  }
  const updatedDate = timestamp(json.updatedDate, 'updatedDate');
  const generator = site(object(json.generator), 'generator', updatedDate);
  const facility = object(json.designatedFacility);
  const transporters: TransporterRecord[] = array(json.transporters).map((value, index) => {
    const transporter = object(value);
    return {
      trackingNumber,
      // Orders are 1, 2, …; a repeated or missing one (haztrak's fixture has two order 1s) takes its place.
      order: index + 1,
      epaId: text(transporter.epaSiteId).toUpperCase(),
      name: text(transporter.name),
    };
  });
  const lines = array(json.wastes).map((value, index) =>
    wasteLine(object(value), index, trackingNumber, context),
  );
  const numbers = new Set(lines.map((line) => line.lineNumber));
  if (numbers.size !== lines.length) throw new JsonProblem('wastes', 'two waste lines with one lineNumber');
  return {
    kind: 'manifest',
    origin,
    record: {
      trackingNumber,
      updatedDate,
      shippedDate: date(json.shippedDate, 'shippedDate'),
      receivedDate: date(json.receivedDate, 'receivedDate'),
      generator,
      facilityEpaId: text(facility.epaSiteId).toUpperCase(),
      facilityName: text(facility.name),
      totalTons: undefined,
      transporters,
      lines,
    },
  };
}

export type JsonOutcome = { record: ImportRecord } | { rejection: Rejection };

/** One top-level value of a JSON file. */
export function mapJsonValue(value: unknown, origin: Origin, context: MappingContext): JsonOutcome {
  const json = object(value);
  try {
    if (Object.keys(json).length === 0) throw new JsonProblem('', 'not a manifest or site object');
    if ('wastes' in json || 'manifestTrackingNumber' in json || 'generator' in json) {
      return { record: manifest(json, origin, context) };
    }
    if ('epaSiteId' in json) {
      const generator = site(json, 'site', '');
      generator.source = 'handler';
      return { record: { kind: 'generator', record: generator, origin } };
    }
    throw new JsonProblem('', 'neither a manifest (wastes, manifestTrackingNumber) nor a site (epaSiteId)');
  } catch (error) {
    if (error instanceof JsonProblem) {
      return { rejection: { ...origin, column: error.path, reason: error.message } };
    }
    throw error;
  }
}
