/**
 * The demo generators: sites with an EPA ID, address, contact, industry, federal status and a few waste
 * streams. Inserted as they are made; the manifest loop reads only the compact plan returned here.
 *
 * Size follows rank: a shuffled rank gives each site a Zipf weight 1/(rank + 1 + q) for its share of the
 * manifests, and the largest sites are the large quantity generators, as in e-Manifest data where a few
 * percent of generators ship most of the waste.
 */
import type { Database } from 'better-sqlite3';
import { GENERATOR_SITE_COLUMNS } from '../generator-columns.ts';
import { streetLine } from '../../../../shared/address.ts';
import type { ReferenceData } from '../reference.ts';
import { DAY_TEXT, SHIPPING_DAYS } from './calendar.ts';
import { INDUSTRIES, type Industry } from './industries.ts';
import { emailAddress, fillName, personName, phoneNumber, secondLine, streetAddress } from './names.ts';
import { type EpaIdIssuer, type PartnerPool, pickPartner } from './partners.ts';
import { type Place, pickPlace, placesIn } from './places.ts';
import { Random, Weighted, weights } from './random.ts';
import { SIZE_CLASSES, type SizeClass, StreamTable } from './streams.ts';

/** Most partners (transporters, facilities) one generator uses. */
export const MAX_PARTNERS = 3;

export interface GeneratorPlan {
  count: number;
  epaIds: string[];
  names: string[];
  states: string[];
  /** Relative share of the manifests. */
  weights: Float64Array;
  size: Uint8Array;
  /** 1 for waste-management sites, which also receive waste from others. */
  wasteHandler: Uint8Array;
  /** The days the site shipped on: firstDay … firstDay + dayCount - 1. */
  firstDay: Int32Array;
  dayCount: Int32Array;
  streams: StreamTable;
  streamStart: Int32Array;
  streamCount: Uint8Array;
  /** MAX_PARTNERS slots per generator; the first is its usual partner. */
  transporters: Int32Array;
  transporterCount: Uint8Array;
  facilities: Int32Array;
  facilityCount: Uint8Array;
}

const COLUMNS = [
  'id',
  'epa_handler_id',
  ...GENERATOR_SITE_COLUMNS,
  'primary_naics_code',
  'primary_naics_desc',
  'is_industry',
  'is_network',
  'is_tracker_enable',
] as const;

const LAND_TYPES = new Weighted(
  weights('Private:88 Municipal:3 State:2.5 County:2 Federal:1.5 District Other:1.5 Tribal:0.5'),
);
const STREAMS_BY_SIZE: readonly (readonly [number, number])[] = [
  [4, 10],
  [3, 6],
  [1, 4],
  [1, 3],
];
const PARTNER_COUNT = new Weighted([
  [1, 50],
  [2, 35],
  [3, 15],
] as const);

/** Size class by rank fraction: the top 8 % are LQGs, then SQGs, VSQGs, and a few sites not (or no longer) generators. */
function sizeOf(rankFraction: number): SizeClass {
  if (rankFraction < 0.08) return 0;
  if (rankFraction < 0.35) return 1;
  if (rankFraction < 0.97) return 2;
  return 3;
}

/** Federal status texts by size class, from federal_generator_status.csv (FED_WASTE_GENERATOR). */
function statusTexts(reference: ReferenceData): { universe: string; code: string }[] {
  return SIZE_CLASSES.map((size) => {
    const row = reference.generatorStatuses.find(
      (status) => status.field === 'FED_WASTE_GENERATOR' && (status.label === size || status.code === size),
    );
    if (!row) throw new RangeError(`federal_generator_status.csv has no FED_WASTE_GENERATOR row for ${size}`);
    return { universe: row.description.split(' (')[0] ?? row.description, code: size };
  });
}

const flag = (random: Random, probability: number): string => (random.chance(probability) ? 'Y' : 'N');

/** The days a site shipped on: most over the whole period; some opened late, some closed early. */
function activityWindow(random: Random, lastDay: number): { first: number; last: number } {
  const roll = random.next();
  if (roll < 0.75) return { first: 0, last: lastDay };
  if (roll < 0.87) return { first: random.int(Math.floor(lastDay * 0.7)), last: lastDay };
  const first = random.chance(0.7) ? 0 : random.int(Math.floor(lastDay * 0.3));
  return { first, last: first + Math.floor((lastDay - first) * (0.2 + 0.65 * random.next())) };
}

interface Address {
  number: string;
  street: string;
  street2: string;
  place: Place;
  zip: string;
}

/** Usually the site's own address; sometimes a PO box, or a head office elsewhere in the state. */
function mailingAddress(site: Address, random: Random): Address {
  const roll = random.next();
  if (roll < 0.8) return site;
  if (roll < 0.92) return { ...site, number: '', street: `PO Box ${random.between(1, 9999)}`, street2: '' };
  const office = random.pick(placesIn(site.place.state));
  const address = streetAddress(random);
  return {
    ...address,
    street2: random.chance(0.3) ? secondLine(random) : '',
    place: office,
    zip: random.pick(office.zips),
  };
}

/** Active for most sites, Inactive for most closed ones, and blank now and then, as in RCRAInfo. */
function registrationStatus(closed: boolean, random: Random): string {
  if (closed) return random.chance(0.75) ? 'Inactive' : '';
  return random.chance(0.92) ? 'Active' : '';
}

/** Fills a generator's partner slots (its usual partner first); returns how many it uses. */
function pickPartners(
  pool: PartnerPool,
  state: string,
  slots: Int32Array,
  generator: number,
  random: Random,
): number {
  const count = PARTNER_COUNT.pick(random);
  for (let slot = 0; slot < count; slot += 1)
    slots[generator * MAX_PARTNERS + slot] = pickPartner(pool, state, random);
  return count;
}

export function insertGenerators(
  db: Database,
  reference: ReferenceData,
  options: {
    count: number;
    seed: number;
    ids: EpaIdIssuer;
    transporters: PartnerPool;
    facilities: PartnerPool;
  },
): GeneratorPlan {
  const { count, ids } = options;
  const random = new Random(options.seed, 'generators');
  const naicsTitles = new Map(reference.naicsCodes.map((naics) => [naics.code, naics.description]));
  for (const industry of INDUSTRIES) {
    if (!naicsTitles.has(industry.naics))
      throw new RangeError(`NAICS ${industry.naics} is not in the reference list`);
  }
  const industryChoice = new Weighted(INDUSTRIES.map((industry) => [industry, industry.weight] as const));
  const familyChoice = new Map<Industry, Weighted<string>>(
    INDUSTRIES.map((industry) => [industry, new Weighted(weights(industry.families))]),
  );
  const statuses = statusTexts(reference);

  const plan: GeneratorPlan = {
    count,
    epaIds: [],
    names: [],
    states: [],
    weights: new Float64Array(count),
    size: new Uint8Array(count),
    wasteHandler: new Uint8Array(count),
    firstDay: new Int32Array(count),
    dayCount: new Int32Array(count),
    streams: new StreamTable(reference),
    streamStart: new Int32Array(count),
    streamCount: new Uint8Array(count),
    transporters: new Int32Array(count * MAX_PARTNERS),
    transporterCount: new Uint8Array(count),
    facilities: new Int32Array(count * MAX_PARTNERS),
    facilityCount: new Uint8Array(count),
  };
  const ranks = Int32Array.from({ length: count }, (_, index) => index);
  random.shuffle(ranks);
  const offset = count / 5000;

  const insert = db.prepare(
    `INSERT INTO generators (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
  );
  const insertNaics = db.prepare(
    'INSERT INTO generator_naics (generator_id, naics_code, naics_desc, is_active) VALUES (?, ?, ?, ?)',
  );
  const insertSic = db.prepare(
    'INSERT INTO generator_sic (generator_id, sic_code, sic_desc) VALUES (?, ?, ?)',
  );
  const lastDay = SHIPPING_DAYS - 1;

  db.transaction(() => {
    for (let index = 0; index < count; index += 1) {
      const id = index + 1;
      const rank = ranks[index] ?? index;
      const size = sizeOf(rank / count);
      plan.weights[index] = 1 / (rank + 1 + offset);

      const place = pickPlace(random);
      const industry = industryChoice.pick(random);
      plan.size[index] = size;
      plan.wasteHandler[index] = industry.naics.startsWith('562') ? 1 : 0;
      const name = fillName(random.pick(industry.names), place, random);
      const epaId = ids.next(place.state, random);
      plan.epaIds.push(epaId);
      plan.names.push(name);
      plan.states.push(place.state);

      const { first, last } = activityWindow(random, lastDay);
      const closed = last < lastDay;
      plan.firstDay[index] = first;
      plan.dayCount[index] = last - first + 1;

      const street = streetAddress(random);
      const street2 = random.chance(0.1) ? secondLine(random) : '';
      const zip = random.pick(place.zips);
      const mail = mailingAddress({ ...street, street2, place, zip }, random);

      const contact = personName(random);
      const status = statuses[size] ?? { universe: '', code: '' };
      const hasCoordinates = random.chance(0.98);
      const publicLand = industry.publicLand !== undefined && random.chance(0.85);
      const shortTerm = flag(random, 0.03);
      const registration = registrationStatus(closed, random);
      let notes = '';
      if (closed)
        notes = `Site closed in ${(DAY_TEXT[last] ?? '').slice(0, 4)}; no longer generates hazardous waste.`;
      else if (shortTerm === 'Y') notes = 'Episodic generation event notified (tank cleanout).';

      insert.run([
        id,
        epaId,
        name,
        streetLine(street.number, street.street),
        street.number,
        street.street,
        street2,
        place.city,
        place.state,
        zip,
        mail.number,
        mail.street,
        mail.street2,
        mail.place.city,
        mail.place.state,
        mail.zip,
        contact,
        phoneNumber(place, random),
        emailAddress(contact, name),
        registration,
        random.chance(0.15) ? String(random.between(10000, 9999999)) : '',
        status.universe,
        status.code,
        publicLand ? (industry.publicLand ?? 'Private') : LAND_TYPES.pick(random),
        shortTerm,
        flag(random, industry.publicLand ? 0.05 : 0.01),
        flag(random, industry.naics === '562112' ? 0.4 : 0.02),
        flag(random, industry.naics === '562112' ? 0.2 : 0.01),
        flag(random, industry.naics.startsWith('325') ? 0.05 : 0.02),
        hasCoordinates ? (place.latitude + (random.next() - 0.5) * 0.12).toFixed(6) : 'Not applicable',
        hasCoordinates ? (place.longitude + (random.next() - 0.5) * 0.16).toFixed(6) : 'Not applicable',
        notes,
        industry.naics,
        naicsTitles.get(industry.naics) ?? '',
        industry.isIndustry ? 'Yes' : 'No',
        random.chance(size === 0 ? 0.35 : 0.12) ? 1 : 0,
        random.chance(0.92) ? 1 : 0,
      ]);

      insertNaics.run(id, industry.naics, naicsTitles.get(industry.naics) ?? '', 'Y');
      const otherNaics = random.int(3);
      const seenNaics = new Set([industry.naics]);
      for (let extra = 0; extra < otherNaics; extra += 1) {
        const other = random.pick(INDUSTRIES).naics;
        if (seenNaics.has(other)) continue;
        seenNaics.add(other);
        insertNaics.run(id, other, naicsTitles.get(other) ?? '', random.chance(0.4) ? 'Y' : 'N');
      }
      const sicRoll = random.next();
      const sicRows = sicRoll < 0.25 ? 0 : sicRoll < 0.85 ? 1 : industry.sic.length;
      for (const [code, description] of industry.sic.slice(0, sicRows)) insertSic.run(id, code, description);

      const families = familyChoice.get(industry);
      const [fewest, most] = STREAMS_BY_SIZE[size] ?? [1, 3];
      const streamCount = random.between(fewest, most);
      plan.streamStart[index] = plan.streams.size;
      plan.streamCount[index] = streamCount;
      for (let stream = 0; stream < streamCount; stream += 1) {
        plan.streams.add(families?.pick(random) ?? 'solvent', size, random);
      }

      plan.transporterCount[index] = pickPartners(
        options.transporters,
        place.state,
        plan.transporters,
        index,
        random,
      );
      plan.facilityCount[index] = pickPartners(
        options.facilities,
        place.state,
        plan.facilities,
        index,
        random,
      );
    }
  })();
  return plan;
}
