/**
 * One CSV row of an EPA table to an import record, or to a rejection naming the column and the reason.
 * A row is rejected for a missing key (tracking number, line number, handler id) or a value that does not
 * read as its type (a date, a number); everything else the source leaves empty stays empty
 * (docs/import.md).
 */
import type { GeneratorStatus } from '../data/reference.ts';
import type { HeaderMap } from './epa-layouts.ts';
import { LIMITS } from '../../../shared/api/limits.ts';
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
} from './model/records.ts';
import { toTons, type UnitTables } from './units.ts';
import {
  TRACKING_NUMBER,
  flag,
  readContainers,
  readCount,
  readDate,
  readTimestamp,
  readNumber,
  splitWasteCodes,
  type Read,
} from './values.ts';

export interface MappingContext {
  units: UnitTables;
  generatorStatuses: readonly GeneratorStatus[];
}

/** Thrown inside a mapper to reject the row; caught once per row. */
class RowProblem extends Error {
  readonly column: string;
  constructor(column: string, reason: string) {
    super(reason);
    this.column = column;
  }
}

class Row {
  private readonly fields: readonly string[];
  private readonly header: HeaderMap;

  constructor(fields: readonly string[], header: HeaderMap) {
    this.fields = fields;
    this.header = header;
  }

  /** The column's name as this file's header writes it, for the report. */
  column(field: string): string {
    const position = this.header.positions.get(field);
    return position === undefined ? field : (this.header.layout.columns[field]?.[0] ?? field);
  }

  text(field: string): string {
    const position = this.header.positions.get(field);
    const value = position === undefined ? '' : (this.fields[position] ?? '').trim();
    if (value.includes(NUL)) throw new RowProblem(this.column(field), NUL_REASON);
    if (value.length > LIMITS.fieldTextMax) throw new RowProblem(this.column(field), TEXT_TOO_LONG);
    return value;
  }

  key(field: string): string {
    const value = this.text(field);
    if (value === '') throw new RowProblem(this.column(field), `no ${this.column(field)}`);
    return value;
  }

  private read<T>(field: string, reader: (text: string) => Read<T>): T {
    const result = reader(this.text(field));
    if (!result.ok) throw new RowProblem(this.column(field), result.message);
    return result.value;
  }

  /** The manifest tracking number, checked as emanifest.json defines it. */
  tracking(): string {
    const value = this.key('tracking').toUpperCase();
    if (!TRACKING_NUMBER.test(value)) {
      throw new RowProblem(
        this.column('tracking'),
        `not a manifest tracking number (9 digits and 3 letters): "${value}"`,
      );
    }
    return value;
  }

  date(field: string): string {
    return this.read(field, readDate);
  }

  timestamp(field: string): string {
    return this.read(field, readTimestamp);
  }

  number(field: string): number | undefined {
    return this.read(field, readNumber);
  }

  count(field: string): number | undefined {
    return this.read(field, readCount);
  }

  /** A waste line's number of containers (readContainers). */
  containers(): number | undefined {
    return this.read('containers', readContainers);
  }

  /** A number that must be there and count from 1: a line's number, a transporter's place. */
  ordinal(field: string): number {
    const value = this.count(field);
    if (value === undefined || value < 1)
      throw new RowProblem(this.column(field), `no ${this.column(field)}`);
    return value;
  }

  /** A waste line's number (isWasteLineNumber). */
  wasteLineNumber(): number {
    const value = this.ordinal('line');
    if (!isWasteLineNumber(value)) throw new RowProblem(this.column('line'), LINE_NUMBER_OUT_OF_RANGE);
    return value;
  }

  address(prefix: string): Address {
    return {
      streetNumber: this.text(`${prefix}StreetNumber`),
      street1: this.text(`${prefix}Street1`),
      street2: this.text(`${prefix}Street2`),
      city: this.text(`${prefix}City`),
      state: this.text(`${prefix}State`).toUpperCase(),
      zip: this.text(`${prefix}Zip`),
    };
  }
}

const KILOGRAMS_TO_TONS = 0.00110231131;

/**
 * FED WASTE GENERATOR (1, 2, 3, N) or GENSTATUS (LQG, SQG, VSG, N) as the tracker's code (LQG, SQG, VSQG, N)
 * and its description, from federal_generator_status.csv; an unknown code is kept as it is.
 */
function generatorStatus(
  context: MappingContext,
  fedCode: string,
  genStatus: string,
): { code: string; text: string } {
  const statuses = statusesOf(context);
  for (const [field, code] of [
    ['FED_WASTE_GENERATOR', fedCode],
    ['GENSTATUS', genStatus],
  ] as const) {
    if (code === '') continue;
    const status = statuses.get(`${field}\u0000${code.toUpperCase()}`);
    if (status) return status;
  }
  const code = fedCode || genStatus;
  return { code, text: code };
}

/** Each context's statuses by field and code, made once rather than searched per handler row. */
const statusMaps = new WeakMap<MappingContext, Map<string, { code: string; text: string }>>();

function statusesOf(context: MappingContext): Map<string, { code: string; text: string }> {
  let statuses = statusMaps.get(context);
  if (!statuses) {
    statuses = new Map();
    for (const row of context.generatorStatuses) {
      const key = `${row.field}\u0000${row.code.toUpperCase()}`;
      if (statuses.has(key)) continue;
      statuses.set(key, {
        code: row.label === 'Not a generator' ? 'N' : row.label,
        text: row.description.split(' (')[0] ?? row.description,
      });
    }
    statusMaps.set(context, statuses);
  }
  return statuses;
}

type Mapper = (row: Row, context: MappingContext) => ImportRecord['record'];

/**
 * A handler row's federal generator status (from FED WASTE GENERATOR, else `genStatus`), activities and
 * place, which both RCRAInfo handler layouts (HD_REPORTING, HD_HANDLER) carry in the same columns.
 */
function handlerActivities(
  row: Row,
  context: MappingContext,
  generator: GeneratorRecord,
  genStatus: string,
): void {
  const status = generatorStatus(context, row.text('fedGenerator'), genStatus);
  generator.federalGeneratorCode = status.code;
  generator.federalGeneratorStatus = status.text;
  generator.landType = row.text('landType');
  generator.shortTermGenerator = flag(row.text('shortTerm'));
  generator.importer = flag(row.text('importer'));
  generator.mixedWasteGenerator = flag(row.text('mixedWaste'));
  generator.transporter = flag(row.text('transporter'));
  generator.transferFacility = flag(row.text('transferFacility'));
  generator.latitude = row.text('latitude');
  generator.longitude = row.text('longitude');
}

const MAPPERS: Record<HeaderMap['layout']['table'], { kind: ImportRecord['kind']; map: Mapper }> = {
  EM_MANIFEST: {
    kind: 'manifest',
    map: (row) => {
      const generator = bareGenerator(row.key('generatorId').toUpperCase(), row.text('generatorName'));
      generator.location = row.address('GeneratorLocation');
      generator.mailing = row.address('GeneratorMail');
      const updated = row.timestamp('updated');
      generator.updated = updated;
      const tons = row.number('totalTons');
      const kilograms = row.number('totalKilograms');
      return {
        trackingNumber: row.tracking(),
        updatedDate: updated,
        shippedDate: row.date('shipped'),
        receivedDate: row.date('received'),
        generator,
        facilityEpaId: row.text('facilityId').toUpperCase(),
        facilityName: row.text('facilityName'),
        totalTons: tons ?? (kilograms === undefined ? undefined : kilograms * KILOGRAMS_TO_TONS),
      };
    },
  },
  EM_WASTE_LINE: {
    kind: 'wasteLine',
    map: (row, context) => {
      const line = row.wasteLineNumber();
      let tons = row.number('tons');
      const kilograms = row.number('kilograms');
      if (tons === undefined && kilograms !== undefined) tons = kilograms * KILOGRAMS_TO_TONS;
      const quantity = row.number('quantity');
      const density = row.number('density');
      if (tons === undefined && quantity !== undefined) {
        tons = toTons(
          context.units,
          quantity,
          row.text('unit'),
          density === undefined ? undefined : { value: density, unit: row.text('densityUnit') },
        );
      }
      return {
        trackingNumber: row.tracking(),
        lineNumber: line,
        dotHazardous: flag(row.text('dotHazardous')),
        dotIdNumber: row.text('dotId').toUpperCase(),
        dotDescription: row.text('dotDescription') || row.text('nonHazardousDescription'),
        containerCount: row.containers() ?? 0,
        containerType: row.text('containerType').toUpperCase(),
        epaWaste: flag(row.text('epaWaste')),
        tons,
        federalWasteCodes: splitWasteCodes(row.text('federalCodes')),
        managementMethodCode: row.text('methodCode').toUpperCase(),
        managementMethodDescription: row.text('methodDescription'),
      };
    },
  },
  EM_TRANSPORTER: {
    kind: 'transporter',
    map: (row) => {
      const order = row.ordinal('order');
      return {
        trackingNumber: row.tracking(),
        order,
        epaId: row.text('id').toUpperCase(),
        name: row.text('name'),
      };
    },
  },
  EM_FEDERAL_WASTE_CODE: {
    kind: 'wasteCode',
    map: (row) => {
      const line = row.wasteLineNumber();
      return { trackingNumber: row.tracking(), lineNumber: line, code: row.key('code').toUpperCase() };
    },
  },
  HD_REPORTING: {
    kind: 'generator',
    map: (row, context) => {
      const generator = bareGenerator(row.key('id').toUpperCase(), row.text('name'));
      generator.source = 'handler';
      // HD_REPORTING has no street number column: LOCATION STREET1 holds the whole street line.
      generator.location = {
        streetNumber: '',
        street1: row.text('street1'),
        street2: row.text('street2'),
        city: row.text('city'),
        state: row.text('state').toUpperCase(),
        zip: row.text('zip'),
      };
      const naics = row.text('naics');
      generator.naics = naics === '' ? [] : [{ code: naics, active: true }];
      handlerActivities(row, context, generator, row.text('genStatus'));
      generator.updated = row.date('lastChange') || row.date('received');
      // ACTIVE SITE is five activity flags, '-' where inactive: any flag set means an active site.
      const active = row.text('activeSite');
      generator.registrationStatus = active === '' ? '' : /[A-Z]/i.test(active) ? 'Active' : 'Inactive';
      return generator;
    },
  },
  HD_HANDLER: {
    kind: 'generator',
    map: (row, context) => {
      const generator = bareGenerator(row.key('id').toUpperCase(), row.text('name'));
      generator.source = 'handler';
      generator.location = row.address('Location');
      generator.mailing = row.address('Mailing');
      generator.contactName = [row.text('contactFirst'), row.text('contactLast')].filter(Boolean).join(' ');
      generator.contactPhone = row.text('contactPhone');
      generator.contactEmail = row.text('contactEmail');
      handlerActivities(row, context, generator, '');
      generator.publicNotes = row.text('publicNotes');
      generator.updated = row.date('received');
      return generator;
    },
  },
  HD_NAICS: {
    kind: 'naics',
    map: (row) => ({
      epaHandlerId: row.key('id').toUpperCase(),
      code: row.key('code'),
      sequence: row.count('sequence') ?? 1,
    }),
  },
};

export type RowOutcome = { record: ImportRecord } | { rejection: Rejection } | { skipped: string };

/** One data row of a file whose header was read as `header`. */
export function mapRow(
  header: HeaderMap,
  fields: readonly string[],
  origin: Origin,
  context: MappingContext,
): RowOutcome {
  if (fields.length !== header.width) {
    const what = fields.length < header.width ? 'a cut line' : 'an unquoted comma or a broken line';
    return {
      rejection: {
        ...origin,
        column: '',
        reason: `${fields.length} fields where the header has ${header.width}: ${what}`,
      },
    };
  }
  const row = new Row(fields, header);
  if (header.layout.table === 'HD_HANDLER' && flag(row.text('current')) === 'N') {
    return { skipped: 'not the handler’s current record' };
  }
  const { kind, map } = MAPPERS[header.layout.table];
  try {
    return { record: { kind, record: map(row, context), origin } as ImportRecord };
  } catch (error) {
    if (error instanceof RowProblem)
      return { rejection: { ...origin, column: error.column, reason: error.message } };
    throw error;
  }
}
