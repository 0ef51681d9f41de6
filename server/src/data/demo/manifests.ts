/**
 * The demo manifests and their waste lines: the hot loop of the generator (a million manifests and 2.5
 * million lines in well under a minute). Every value comes from precomputed pools, typed arrays and two
 * reused prepared statements; one transaction per chunk of manifests.
 */
import type { Database } from 'better-sqlite3';
import { MANIFEST_FROM_LINES, MANIFEST_QUANTITIES } from '../../../../shared/query/definition.ts';
import { reduceTotals } from '../../../../shared/query/totals.ts';
import { DAY_TEXT, SHIPPING_DAYS, WEEKDAY, YEAR_COUNT, YEAR_INDEX } from './calendar.ts';
import { type GeneratorPlan, MAX_PARTNERS } from './generators.ts';
import type { PartnerPool } from './partners.ts';
import { Random, Weighted } from './random.ts';

/** Waste lines per manifest: one to six, 2.5 on average. */
const LINE_COUNT = new Weighted([
  [1, 30],
  [2, 28],
  [3, 19],
  [4, 11],
  [5, 7],
  [6, 5],
] as const);
/** Days between shipment and receipt: mostly next day, rarely two weeks. */
const TRANSIT_DAYS = new Weighted(
  [5, 30, 20, 13, 9, 6, 4, 3, 2, 2, 1.5, 1.5, 1, 1, 1].map((weight, days) => [days, weight] as const),
);
/** Printed (paper) manifest suffixes; electronic manifests end in ELC. */
const PAPER_SUFFIXES = ['JJK', 'FLE', 'GBF', 'DAT', 'MWI', 'SKS'];
const MAX_LINES = 6;
const CHUNK = 25_000;
/**
 * Tracking numbers: 100000000 + (stride · n + offset) mod 9·10⁸. The stride is coprime with 9·10⁸, so the map
 * is one-to-one and every manifest gets its own number, without a set of issued numbers.
 */
const TRACKING_SPACE = 900_000_000;
const TRACKING_STRIDE = 82_451_653;

export interface ManifestProgress {
  done: number;
  wasteLines: number;
}

export interface ManifestResult {
  wasteLines: number;
  /** Tons shipped per generator and year: index generator · YEAR_COUNT + (year - FIRST_YEAR). */
  yearTons: Float64Array;
}

/** Which generator ships each manifest: every generator once, the rest by Zipf weight, in shuffled order. */
function assignGenerators(plan: GeneratorPlan, manifests: number, random: Random): Int32Array {
  const owner = new Int32Array(manifests);
  const cumulative = new Float64Array(plan.count);
  let total = 0;
  for (let generator = 0; generator < plan.count; generator += 1) {
    total += plan.weights[generator] ?? 0;
    cumulative[generator] = total;
    if (generator < manifests) owner[generator] = generator;
  }
  for (let manifest = plan.count; manifest < manifests; manifest += 1) {
    const target = random.next() * total;
    let low = 0;
    let high = plan.count - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? 0) > target) high = middle;
      else low = middle + 1;
    }
    owner[manifest] = low;
  }
  random.shuffle(owner);
  return owner;
}

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

/** Whether the first `count` lines already carry `stream` (no allocation: this runs per waste line). */
function holds(lines: Int32Array, count: number, stream: number): boolean {
  for (let line = 0; line < count; line += 1) if (lines[line] === stream) return true;
  return false;
}

export function insertManifests(
  db: Database,
  plan: GeneratorPlan,
  partners: { transporters: PartnerPool; facilities: PartnerPool },
  options: { manifests: number; seed: number; onProgress?: (progress: ManifestProgress) => void },
): ManifestResult {
  const { manifests } = options;
  const random = new Random(options.seed, 'manifests');
  const owner = assignGenerators(plan, manifests, random);
  const trackingOffset = random.int(TRACKING_SPACE);
  const yearTons = new Float64Array(plan.count * YEAR_COUNT);
  const { streams } = plan;
  const transporters = partners.transporters.all;
  const facilities = partners.facilities.all;
  const lastDay = SHIPPING_DAYS - 1;

  const insertManifest = db.prepare(
    `INSERT INTO manifests (id, manifest_tracking_number, generator_id, generator_name, generator_epa_id,
       generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
       ${MANIFEST_QUANTITIES.join(', ')})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${MANIFEST_QUANTITIES.map(() => '?').join(', ')})`,
  );
  const insertLine = db.prepare(
    `INSERT INTO waste_lines (manifest_id, waste_line_number, usdot_haz_indicator, usdot_id_number, usdot_desc,
       container_count, container_type_code, epa_waste_indicator, waste_quantity_tons, transporter,
       federal_waste_codes, management_method_code, mmc_and_desc)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'Y', ?, ?, ?, ?, ?)`,
  );

  const lineStream = new Int32Array(MAX_LINES);
  const lineContainers = new Int32Array(MAX_LINES);
  const lineTons = new Float64Array(MAX_LINES);
  // The manifest's quantities reduce its lines' (MANIFEST_FROM_LINES): the first `lines` positions of these.
  const lineQuantities = { waste_quantity_tons: lineTons, container_count: lineContainers };
  const positions = Array.from({ length: MAX_LINES + 1 }, (_, count) =>
    Int32Array.from({ length: count }, (__, line) => line),
  );
  let wasteLines = 0;

  const writeChunk = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index += 1) {
      const generator = owner[index] ?? 0;
      let day = (plan.firstDay[generator] ?? 0) + random.int(plan.dayCount[generator] ?? 1);
      // Waste ships on working days: Sundays move to Monday, most Saturdays to Friday.
      const weekday = WEEKDAY[day];
      if (weekday === 0) day = day < lastDay ? day + 1 : day - 2;
      else if (weekday === 6 && random.chance(0.85)) day -= 1;
      const received = day + TRANSIT_DAYS.pick(random);
      const year = YEAR_INDEX[day] ?? 0;

      const electronicShare = 0.55 + 0.045 * year;
      const suffix = random.chance(electronicShare)
        ? 'ELC'
        : (PAPER_SUFFIXES[random.int(PAPER_SUFFIXES.length)] ?? 'JJK');
      const tracking = `${100_000_000 + ((TRACKING_STRIDE * index + trackingOffset) % TRACKING_SPACE)}${suffix}`;

      const slot = generator * MAX_PARTNERS;
      const transporterSlot = random.chance(0.85) ? 0 : random.int(plan.transporterCount[generator] ?? 1);
      const facilitySlot = random.chance(0.8) ? 0 : random.int(plan.facilityCount[generator] ?? 1);
      const transporter = transporters[plan.transporters[slot + transporterSlot] ?? 0];
      const facility = facilities[plan.facilities[slot + facilitySlot] ?? 0];

      const lines = LINE_COUNT.pick(random);
      const streamStart = plan.streamStart[generator] ?? 0;
      const streamCount = plan.streamCount[generator] ?? 1;
      for (let line = 0; line < lines; line += 1) {
        // Different streams on one manifest where the generator has enough of them.
        let stream = streamStart + random.int(streamCount);
        for (let retry = 0; retry < 3 && line < streamCount && holds(lineStream, line, stream); retry += 1) {
          stream = streamStart + random.int(streamCount);
        }
        const most = streams.maxCount[stream] ?? 1;
        const count =
          most === 1
            ? 1
            : Math.min(
                most,
                Math.max(1, Math.round((streams.typicalCount[stream] ?? 1) * random.spread(0.5))),
              );
        const lineWeight = Math.max(
          0.0001,
          round4(count * (streams.tonsPerContainer[stream] ?? 0.2) * random.spread(0.2)),
        );
        lineStream[line] = stream;
        lineContainers[line] = count;
        lineTons[line] = lineWeight;
      }
      const quantities = reduceTotals(MANIFEST_FROM_LINES, lineQuantities, positions[lines] ?? []);
      const yearSlot = generator * YEAR_COUNT + year;
      yearTons[yearSlot] = (yearTons[yearSlot] ?? 0) + quantities.total_waste_quantity_tons;

      const id = index + 1;
      insertManifest.run(
        id,
        tracking,
        generator + 1,
        plan.names[generator],
        plan.epaIds[generator],
        plan.states[generator],
        transporter?.name ?? '',
        facility?.name ?? '',
        DAY_TEXT[day],
        DAY_TEXT[received],
        ...MANIFEST_QUANTITIES.map((quantity) => quantities[quantity]),
      );
      const transporterId = transporter?.epaId ?? '';
      for (let line = 0; line < lines; line += 1) {
        const stream = lineStream[line] ?? 0;
        insertLine.run(
          id,
          line + 1,
          streams.hazIndicator[stream],
          streams.dotId[stream],
          streams.dotDesc[stream],
          lineContainers[line],
          streams.container[stream],
          lineTons[line],
          transporterId,
          streams.wasteCodes[stream],
          streams.methodCode[stream],
          streams.methodText[stream],
        );
      }
      wasteLines += lines;
    }
  });

  for (let from = 0; from < manifests; from += CHUNK) {
    const to = Math.min(manifests, from + CHUNK);
    writeChunk(from, to);
    options.onProgress?.({ done: to, wasteLines });
  }
  return { wasteLines, yearTons };
}
