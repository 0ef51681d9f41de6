/**
 * EPA identification numbers, and the companies that carry and receive the demo generators' waste:
 * transporters and designated (treatment, storage and disposal) facilities.
 */
import { pickPlace } from './places.ts';
import type { Random } from './random.ts';
import { facilityName, transporterName } from './names.ts';

/** The letter after the state code in newer IDs of a few states (CAL…, WAH…, ORQ…). */
const STATE_LETTERS: Record<string, string> = { CA: 'L', WA: 'H', OR: 'Q', MI: 'K', MA: 'C', NY: 'P' };

/**
 * Issues unique EPA IDs: state code, a letter, nine digits. Older sites carry "D" and nine digits
 * (TXD008079212, OHD987048733), newer ones "R000" and six digits (NJR000077210) or a state's own letter.
 */
export class EpaIdIssuer {
  private readonly issued = new Set<string>();

  next(state: string, random: Random): string {
    for (;;) {
      const roll = random.next();
      let id: string;
      if (roll < 0.45)
        id = `${state}D${random.chance(0.6) ? `0${random.digits(8)}` : `98${random.digits(7)}`}`;
      else if (roll < 0.9 || !STATE_LETTERS[state]) id = `${state}R000${random.digits(6)}`;
      else id = `${state}${STATE_LETTERS[state]}000${random.digits(6)}`;
      if (!this.issued.has(id)) {
        this.issued.add(id);
        return id;
      }
    }
  }
}

export interface Partner {
  name: string;
  epaId: string;
  state: string;
}

export interface PartnerPool {
  all: Partner[];
  byState: Map<string, number[]>;
}

function pool(
  count: number,
  random: Random,
  ids: EpaIdIssuer,
  name: (place: ReturnType<typeof pickPlace>, random: Random) => string,
): PartnerPool {
  const all: Partner[] = [];
  const byState = new Map<string, number[]>();
  const names = new Set<string>();
  while (all.length < count) {
    const place = pickPlace(random);
    const candidate = name(place, random);
    if (names.has(candidate)) continue;
    names.add(candidate);
    byState.set(place.state, [...(byState.get(place.state) ?? []), all.length]);
    all.push({ name: candidate, epaId: ids.next(place.state, random), state: place.state });
  }
  return { all, byState };
}

export const TRANSPORTER_COUNT = 400;
export const FACILITY_COUNT = 300;

export function createTransporters(random: Random, ids: EpaIdIssuer): PartnerPool {
  return pool(TRANSPORTER_COUNT, random, ids, transporterName);
}

export function createFacilities(random: Random, ids: EpaIdIssuer): PartnerPool {
  return pool(FACILITY_COUNT, random, ids, facilityName);
}

/** A partner a generator in `state` would contract: usually one in its own state, when there is one. */
export function pickPartner(partners: PartnerPool, state: string, random: Random): number {
  const local = partners.byState.get(state);
  if (local && random.chance(0.7)) return random.pick(local);
  return random.int(partners.all.length);
}
