/**
 * Names for the demo dataset: people, streets and companies that read like RCRAInfo records. Company names
 * are invented from common words, regional names and common surnames; contact e-mail addresses use the
 * reserved example.com domain and phone numbers the 555-01xx range set aside for fiction, so no demo record
 * points at a real mailbox or telephone.
 */
import type { Place } from './places.ts';
import type { Random } from './random.ts';
import { Weighted } from './random.ts';

const words = (text: string): string[] => text.trim().split(/\s+/);
const phrases = (text: string): string[] => text.split(',').map((item) => item.trim());

const FIRST_NAMES = words(`
James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph
Jessica Thomas Sarah Christopher Karen Charles Lisa Daniel Nancy Matthew Betty Anthony Sandra Mark Margaret
Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Melissa
George Deborah Timothy Stephanie Ronald Rebecca Jason Sharon Edward Laura Jeffrey Cynthia Ryan Dorothy Jacob
Amy Gary Kathleen Nicholas Angela Eric Shirley Jonathan Emma Stephen Brenda Larry Pamela Justin Nicole Scott
Anna Brandon Samantha Benjamin Katherine Samuel Christine Gregory Debra Alexander Rachel Patrick Carolyn Frank
Janet Raymond Maria Jack Olivia Dennis Heather Jerry Helen Tyler Catherine Aaron Diane Jose Julie Adam Victoria
Nathan Joyce Henry Lauren Zachary Kelly Douglas Christina Peter Ruth Kyle Joan Noah Virginia Ethan Judith
Jeremy Evelyn Walter Hannah Christian Andrea Keith Megan Roger Cheryl Terry Jacqueline Austin Madison Sean
Teresa Gerald Abigail Carl Sophia Harold Martha Dylan Sara Arthur Gloria Lawrence Janice Jordan Kathryn Jesse
Bryan Isabella Bruce Charlotte Gabriel Julia Logan Amber Alan Alice Juan Denise Wayne Marilyn Randy Natalie
Vincent Beverly Roy Brittany Ralph Theresa Russell Alexis Bradley Doris Philip Lori Eugene Tiffany Luis Carlos
Miguel Ana Rosa Wei Mei Priya Raj Minh Linh Kwame Aisha Hector Sofia Omar Fatima Hiroshi Yuki Sanjay Deepa
`);

const SURNAMES = words(`
Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson
Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis
Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera
Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart
Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim
Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo
Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler
Henderson Barnes Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin
Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford Castro
Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker
Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks
Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels
Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley Spencer Hawkins Arnold Pierce Hansen
Peters Santos Hart Bradley Knight Elliott Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Berry
Perkins Hoffman Johnston Matthews Richards Willis Carpenter Lawrence Sandoval Novak Kowalski Larson Lindqvist
`);

const PREFIXES = phrases(`
Allied, American, Apex, Atlas, Benchmark, Cardinal, Central, Champion, Citadel, Clearwater, Cornerstone,
Crestview, Crown, Diamond, Dominion, Eagle, Elite, Empire, Enterprise, Evergreen, Excel, Falcon, First Choice,
Frontier, Gateway, Genesis, Granite, Guardian, Harbor, Heritage, Highland, Horizon, Independence, Integrity,
Keystone, Lakeview, Landmark, Legacy, Liberty, Lighthouse, Majestic, Maple Leaf, Meridian, Metro, Millennium,
Monarch, Mountain View, National, Northstar, Oak Ridge, Paramount, Patriot, Peak, Pinnacle, Pioneer, Premier,
Precision, Prestige, Quality, Redwood, Reliable, Reliance, Ridgeline, Riverside, Royal, Sentinel, Silver Creek,
Sterling, Summit, Sunrise, Superior, Titan, Tri-County, Trinity, Triumph, United, Unity, Valley, Vanguard,
Victory, Vista, Westview, Cedar Point, Ironwood, Cobalt, Copper Ridge, Crescent, Bluewater, Stonebridge,
Fairview, Greenfield, Brookside, Hillcrest, Parkway, Northgate, Southport, Eastfield, Westgate, Fieldstone
`);

/** Regional names and the states where a company would take them. */
const REGIONAL_PREFIXES: readonly (readonly [string, string])[] = [
  ['Gulf Coast', 'TX LA MS AL FL'],
  ['Great Lakes', 'MI OH IL IN WI MN NY PA'],
  ['Pacific', 'CA OR WA HI AK'],
  ['Pacific Northwest', 'WA OR ID'],
  ['Rocky Mountain', 'CO UT WY MT ID NM'],
  ['Chesapeake', 'MD VA DE'],
  ['Tidewater', 'VA'],
  ['Piedmont', 'NC SC GA VA'],
  ['Ozark', 'AR MO OK'],
  ['Appalachian', 'WV KY TN PA VA'],
  ['High Plains', 'KS NE ND SD OK TX CO'],
  ['New England', 'ME NH VT MA RI CT'],
  ['Bayou', 'LA'],
  ['Lone Star', 'TX'],
  ['Sunbelt', 'AZ NV FL GA TX'],
  ['Delta', 'MS LA AR'],
  ['Cascade', 'WA OR'],
  ['Desert', 'AZ NV NM'],
  ['Mid-Atlantic', 'NJ PA DE MD'],
  ['Tri-State', 'NY NJ CT'],
  ['Midwest', 'OH IN IL MI WI MN IA MO KS NE'],
  ['Heartland', 'KS MO NE IA'],
  ['Ohio Valley', 'OH KY WV IN'],
  ['Mississippi Valley', 'MO IL IA MN'],
  ['Permian Basin', 'TX NM'],
  ['Hudson Valley', 'NY'],
  ['Golden State', 'CA'],
  ['Palmetto', 'SC'],
  ['Magnolia', 'MS LA'],
  ['Bluegrass', 'KY'],
  ['Buckeye', 'OH'],
  ['Hoosier', 'IN'],
  ['Sooner', 'OK'],
  ['Badger', 'WI'],
  ['Peach State', 'GA'],
  ['Sunshine', 'FL'],
  ['Aloha', 'HI'],
  ['Big Sky', 'MT'],
  ['Green Mountain', 'VT'],
  ['Granite State', 'NH'],
  ['Tar Heel', 'NC'],
  ['Volunteer', 'TN'],
  ['Wolverine', 'MI'],
  ['Prairie', 'IL KS NE ND SD IA'],
  ['Potomac', 'DC MD VA'],
  ['Silver State', 'NV'],
  ['Cornhusker', 'NE'],
  ['Hawkeye', 'IA'],
  ['Pine Tree', 'ME'],
  ['Ocean State', 'RI'],
  ['Garden State', 'NJ'],
  ['Bay State', 'MA'],
  ['Beehive', 'UT'],
  ['Front Range', 'CO'],
  ['Treasure Valley', 'ID'],
  ['Rio Grande', 'NM TX'],
  ['Red River', 'TX OK LA AR'],
  ['Northwoods', 'WI MN MI'],
  ['Dakota', 'ND SD'],
  ['Big Horn', 'WY MT'],
  ['Chugach', 'AK'],
  ['Delmarva', 'DE MD VA'],
  ['Lowcountry', 'SC GA'],
  ['Smoky Mountain', 'TN NC'],
  ['Blue Ridge', 'VA NC'],
  ['Susquehanna', 'PA NY MD'],
  ['Allegheny', 'PA WV'],
  ['Cumberland', 'TN KY'],
  ['Tennessee Valley', 'TN AL'],
  ['Puget Sound', 'WA'],
  ['Bay Area', 'CA'],
  ['Inland Empire', 'CA'],
  ['Sonoran', 'AZ'],
  ['Wasatch', 'UT'],
  ['Acadiana', 'LA'],
  ['Hampton Roads', 'VA'],
  ['Lake Erie', 'OH PA NY'],
  ['Steel Valley', 'PA OH'],
  ['Capitol', 'DC'],
];

const regionalByState = new Map<string, string[]>();
for (const [prefix, states] of REGIONAL_PREFIXES) {
  for (const state of words(states)) {
    regionalByState.set(state, [...(regionalByState.get(state) ?? []), prefix]);
  }
}

const STREETS = phrases(`
Main St, Industrial Blvd, Commerce Dr, Industrial Park Rd, Airport Rd, Railroad Ave, River Rd, Harbor Dr,
Port Rd, Refinery Rd, Plant Rd, Technology Dr, Research Blvd, Corporate Pkwy, Enterprise Dr, Distribution Way,
Manufacturers Rd, Foundry St, Mill St, Factory St, Center St, Market St, Washington Ave, Lincoln Ave,
Jefferson St, Madison Ave, Franklin St, Park Ave, Oak St, Elm St, Maple Ave, Pine St, Cedar St, Highland Ave,
Lake St, Hill St, Broadway, State St, Water St, Front St, Grand Ave, Union Ave, Chestnut St, Walnut St,
Spruce St, Hickory Ln, Sycamore Dr, Willow Rd, Industrial Pkwy, Business Park Dr, Interstate Dr, Frontage Rd,
Chemical Rd, Tank Farm Rd, Pipeline Rd, Terminal Rd, Dock St, Wharf Rd, Depot St, Quarry Rd, Canal St,
Progress Dr, Innovation Way, Service Rd, Freeport Pkwy, Venture Dr, Hospital Dr, University Ave, College Ave,
Medical Center Dr, Pleasant Valley Rd, Old Mill Rd, Riverside Dr, Lakeshore Dr, Bay St, Ferry St, Kings Hwy
`);

const ORDINAL_SUFFIX = ['th', 'st', 'nd', 'rd', 'th', 'th', 'th', 'th', 'th', 'th'];
const ordinal = (n: number): string =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (ORDINAL_SUFFIX[n % 10] ?? 'th')}`;

const COMPANY_SUFFIXES = new Weighted([
  [' Inc', 4],
  [' LLC', 4],
  [' Co', 1.5],
  [' Corp', 1.5],
  [' Company', 0.5],
  [' LP', 0.3],
  ['', 2],
] as const);

const TRANSPORT_WORDS = phrases(`
Environmental Transport, Trucking, Hazmat Logistics, Transportation, Tank Lines, Freight Lines,
Environmental Services, Industrial Services, Waste Transport, Carriers, Bulk Transport, Motor Lines, Logistics,
Express, Haulers
`);

const FACILITY_WORDS = phrases(`
Environmental Services, Waste Treatment, Disposal Facility, Recycling, Fuel Blending, Incineration Services,
Landfill, Solvent Recovery, Resource Recovery, Chemical Services, Treatment Center, Thermal Treatment,
Metals Recovery, Battery Recycling, Environmental Technologies, Industrial Waste Services,
Waste Management Center, Stabilization Facility, Deep Well Services
`);

export function personName(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(SURNAMES)}`;
}

export function surname(random: Random): string {
  return random.pick(SURNAMES);
}

/** A place-like word: a regional name of the state about a third of the time, else a common one. */
export function prefixFor(state: string, random: Random): string {
  const regional = regionalByState.get(state);
  if (regional && random.chance(0.35)) return random.pick(regional);
  return random.pick(PREFIXES);
}

export function companySuffix(random: Random): string {
  return COMPANY_SUFFIXES.pick(random);
}

/** Fills a name pattern of industries.ts for a site at `place`. */
export function fillName(pattern: string, place: Place, random: Random): string {
  return pattern
    .replace('{prefix}', () => prefixFor(place.state, random))
    .replace('{surname}', () => surname(random))
    .replace('{city}', place.city)
    .replace('{co}', () => companySuffix(random));
}

export function transporterName(place: Place, random: Random): string {
  const owner = random.chance(0.4) ? surname(random) : prefixFor(place.state, random);
  return `${owner} ${random.pick(TRANSPORT_WORDS)}${companySuffix(random)}`;
}

export function facilityName(place: Place, random: Random): string {
  const base = `${prefixFor(place.state, random)} ${random.pick(FACILITY_WORDS)}`;
  return random.chance(0.5)
    ? `${base} ${place.city}${companySuffix(random)}`
    : `${base}${companySuffix(random)}`;
}

/** A street address: a named street, a numbered one, or a highway, with a plausible house number. */
export function streetAddress(random: Random): { number: string; street: string } {
  const number = String(Math.min(99999, Math.max(1, Math.round(400 * random.spread(1.1)))));
  const roll = random.next();
  if (roll < 0.7) return { number, street: random.pick(STREETS) };
  if (roll < 0.9) {
    const direction = random.pick(['N', 'S', 'E', 'W']);
    return { number, street: `${direction} ${ordinal(random.between(1, 60))} ${random.pick(['St', 'Ave'])}` };
  }
  const road = random.pick(['State Highway', 'US Highway', 'County Road']);
  return { number, street: `${road} ${random.between(1, 299)}` };
}

/** "Suite 200", "Bldg 4", …: the optional second address line. */
export function secondLine(random: Random): string {
  const kind = random.int(4);
  if (kind === 0) return `Suite ${random.between(1, 9) * 100 + random.between(0, 20)}`;
  if (kind === 1) return `Bldg ${random.between(1, 12)}`;
  if (kind === 2) return `Unit ${random.pick(['A', 'B', 'C', 'D'])}`;
  return `Dock ${random.between(1, 8)}`;
}

/** A fictional number in the site's area code (555-0100 to 555-0199 are reserved for fiction). */
export function phoneNumber(place: Place, random: Random): string {
  return `${place.areaCode}-555-01${random.digits(2)}`;
}

const DOMAIN_STOP_WORDS = new Set(['inc', 'llc', 'co', 'corp', 'company', 'lp', 'the', 'of', 'and']);

/** first.last@<company>.example.com: the reserved example.com domain, never a real mailbox. */
export function emailAddress(person: string, company: string): string {
  const local = person
    .toLowerCase()
    .replace(/[^a-z ]/g, '')
    .trim()
    .replace(/\s+/g, '.');
  const domain = company
    .toLowerCase()
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !DOMAIN_STOP_WORDS.has(word))
    .slice(0, 3)
    .join('');
  return `${local}@${domain || 'site'}.example.com`;
}
