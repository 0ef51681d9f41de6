/**
 * Real US places for the demo dataset: every state and DC, real cities with their real zip codes, area
 * codes and approximate coordinates (city centres). States are picked by population (2020 census, millions),
 * nudged up where heavy industry makes for many hazardous-waste generators, so the big states hold most
 * generators as they do in RCRAInfo.
 */
import { type Random, Weighted, weights } from './random.ts';
import { US_CITIES } from './us-cities.ts';

export interface Place {
  state: string;
  city: string;
  latitude: number;
  longitude: number;
  areaCode: string;
  zips: readonly string[];
}

/** Millions of people (2020 census, rounded); TX, LA, OH, IN and NJ raised for their chemical industry. */
const STATE_WEIGHTS = new Map(
  weights(`
  CA:39.5 TX:35 FL:21.5 NY:20.2 PA:13 IL:12.8 OH:13 GA:10.7 NC:10.4 MI:10.1 NJ:10 VA:8.6 WA:7.7 AZ:7.2
  MA:7 TN:6.9 IN:7.5 MD:6.2 MO:6.2 WI:5.9 CO:5.8 MN:5.7 SC:5.1 AL:5 LA:7 KY:4.5 OR:4.2 OK:4 CT:3.6
  UT:3.3 IA:3.2 NV:3.1 AR:3 MS:3 KS:2.9 NM:2.1 NE:2 ID:1.8 WV:1.8 HI:1.5 NH:1.4 ME:1.4 RI:1.1 MT:1.1
  DE:1 SD:0.9 ND:0.8 AK:0.7 DC:0.7 VT:0.6 WY:0.6
`),
);

function parseCities(text: string): Place[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [state = '', city = '', latitude = '', longitude = '', areaCode = '', zips = ''] =
        line.split('|');
      return {
        state,
        city,
        latitude: Number(latitude),
        longitude: Number(longitude),
        areaCode,
        zips: zips.split(' '),
      };
    });
}

export const PLACES: readonly Place[] = parseCities(US_CITIES);

const placesByState = new Map<string, Place[]>();
for (const place of PLACES) {
  const list = placesByState.get(place.state) ?? [];
  list.push(place);
  placesByState.set(place.state, list);
}

const stateChoice = new Weighted([...STATE_WEIGHTS]);

export function placesIn(state: string): readonly Place[] {
  const places = placesByState.get(state);
  if (!places) throw new RangeError(`no places for state ${state}`);
  return places;
}

/** A random place: a state by its weight, then one of its cities. */
export function pickPlace(random: Random): Place {
  return random.pick(placesIn(stateChoice.pick(random)));
}
