/**
 * Waste streams as they appear on manifests: which DOT entry, waste codes, management method and container
 * go together. Each family is a kind of waste (spent solvents, plating sludge, lab packs, …); an industry
 * draws its streams from the families it produces (industries.ts), so a plating shop ships F006 sludge for
 * stabilisation and a body shop ships paint waste for fuel blending, as in real e-Manifest data.
 *
 * Hazard classes and packing groups are those of the 49 CFR 172.101 table for the identification numbers in
 * server/data/reference/dot_ids_common_on_manifests.csv.
 */
import type { DotEntry } from '../reference.ts';
import { type Weights, weights } from './random.ts';

export interface WasteFamily {
  /** DOT identification numbers; every proper shipping name listed for an id is a candidate. */
  dot: Weights;
  /** The stream's main waste code. `U*`, `P*`, `K*` stand for any listed code of that letter. */
  codes: Weights;
  /** Codes that often accompany the main one on the same line. */
  extraCodes: readonly string[];
  methods: Weights;
  containers: Weights;
  /** Constituents named in parentheses after an n.o.s. shipping name. */
  technicalNames: readonly string[];
}

function family(spec: {
  dot: string;
  codes: string;
  extraCodes: string;
  methods: string;
  containers: string;
  technicalNames: readonly string[];
}): WasteFamily {
  return {
    dot: weights(spec.dot),
    codes: weights(spec.codes),
    extraCodes: spec.extraCodes.trim().split(/\s+/),
    methods: weights(spec.methods),
    containers: weights(spec.containers),
    technicalNames: spec.technicalNames,
  };
}

const SOLVENTS = ['Acetone', 'Xylene', 'Toluene', 'Methanol', 'Methyl ethyl ketone', 'Isopropanol'];
const METALS = ['Lead', 'Chromium', 'Cadmium', 'Barium', 'Arsenic', 'Silver', 'Nickel'];
const ORGANICS = ['Benzene', 'Trichloroethylene', 'Tetrachloroethylene', 'Chloroform', 'Phenol'];

export const FAMILIES = {
  solvent: family({
    dot: 'UN1993:6 UN1090:2 UN1219 UN1230 UN1294 UN1307 UN1992:1.5 UN2924:0.5 UN3286:0.3',
    codes: 'D001:5 F003:3 F005:2 F002',
    extraCodes: 'D001 F003 F005 F001 D035 D018 D039 D040 U002 U019',
    methods: 'H061:6 H020:2 H040:2 H141:1.5 H050:0.5',
    containers: 'DM:6 DF:2 TT:1.5 TP',
    technicalNames: [...SOLVENTS, 'Ethyl acetate', 'n-Butyl acetate', 'Heptane', 'Mineral spirits'],
  }),
  paint: family({
    dot: 'UN1263:6 UN1133 UN1139:1.5 UN1866 UN1993',
    codes: 'D001:5 F003:2 F005:2',
    extraCodes: 'F003 F005 D035 D007 D008 D006',
    methods: 'H061:5 H040:2 H141:2 H020',
    containers: 'DM:5 DF:2 CM CF',
    technicalNames: SOLVENTS,
  }),
  acid: family({
    dot: 'UN1760:3 UN1789:1.5 UN1830:1.5 UN3264:3 UN2922:0.5',
    codes: 'D002:8 D007',
    extraCodes: 'D007 D008 D006 D004 D005 D010 D011 D009',
    methods: 'H070:4 H121:3 H129 H141:1.5 H100:0.5 H135:0.2',
    containers: 'DF:5 DM:2 TT:1.5 TP',
    technicalNames: [
      'Hydrochloric acid',
      'Sulfuric acid',
      'Nitric acid',
      'Phosphoric acid',
      'Hydrofluoric acid',
    ],
  }),
  base: family({
    dot: 'UN1824:3 UN3266:3 UN1791 UN1759:1.5',
    codes: 'D002:8 F009 F007:0.5',
    extraCodes: 'F007 F009 D007 D003 D006',
    methods: 'H070:4 H121:3 H129 H141',
    containers: 'DF:5 DM:2 TT TP',
    technicalNames: ['Sodium hydroxide', 'Potassium hydroxide', 'Sodium hypochlorite', 'Ammonium hydroxide'],
  }),
  hazardousSolid: family({
    dot: 'NA3077:5 UN3077:4',
    codes: `D008:2 D007:1.5 D006 F006:1.5 D018:0.5 F019:0.8 D009:0.5 D004:0.5 D005:0.3 D011:0.3
      D039:0.3 D040:0.3`,
    extraCodes: 'D004 D005 D006 D007 D008 D010 D011 D018 D039 D040 F039',
    methods: 'H132:4 H040:2 H110:2 H141:2 H010:0.5',
    containers: 'CM:4 DM:4 DT:2 CF DF BA:0.5 CW:0.2',
    technicalNames: [...METALS, ...ORGANICS],
  }),
  hazardousLiquid: family({
    dot: 'NA3082:5 UN3082:4',
    codes: 'D018 D039 D040 D008 D007 F039:1.5 D004:0.5 D006:0.5 D022:0.3 D019:0.3 D028:0.3 D035:0.5',
    extraCodes: 'D004 D006 D007 D008 D009 D018 D022 D028 D039 D040 F039',
    methods: 'H040:3 H070:2 H100:1.5 H134 H141:2 H081:0.5 H120:0.5 H135:0.3',
    containers: 'TT:3 DM:4 DF:2 TP:1.5',
    technicalNames: [...ORGANICS, ...METALS],
  }),
  aerosol: family({
    dot: 'UN1950',
    codes: 'D001:8 D003:0.5',
    extraCodes: 'F003 F005 D035 D003',
    methods: 'H040:3 H141:2 H039:2 H061',
    containers: 'CF:4 DM:3 DF:2 CM:0.5',
    technicalNames: [],
  }),
  battery: family({
    dot: 'UN2794:5 UN3028:2',
    codes: 'D002:6 D008:2',
    extraCodes: 'D008 D006 D002',
    methods: 'H010:8 H141:2',
    containers: 'CF:3 CM:2 DM DF CW',
    technicalNames: [],
  }),
  mercury: family({
    dot: 'UN2809',
    codes: 'D009',
    extraCodes: 'D008',
    methods: 'H011:6 H010:2 H141:2',
    containers: 'DF:4 CF:3 DM:2',
    technicalNames: [],
  }),
  petroleum: family({
    dot: 'UN1203:3 UN1268:3 UN1993',
    codes: 'D001:6 D018:2',
    extraCodes: 'D018 D001 D008 F037',
    methods: 'H061:4 H050:2 H039:2 H141',
    containers: 'DM:3 TT:3 TP DF',
    technicalNames: ['Gasoline', 'Diesel fuel', 'Benzene', 'Toluene', 'Xylene'],
  }),
  refinery: family({
    dot: 'NA3077:3 UN3077 NA3082:2',
    codes: 'F037:3 F038:2 D018:2 D001',
    extraCodes: 'F037 F038 D018 D001 D008 D007',
    methods: 'H040:2 H132:2 H050 H061 H110',
    containers: 'CM:3 DT:2 TT:2 DM:2 TP',
    technicalNames: ['Benzene', 'Oil', 'Toluene', 'Chromium', 'Lead'],
  }),
  toxic: family({
    dot: 'UN2810:3 UN2811:3',
    codes: 'U*:5 P*:2 D012:0.3 D013:0.3 D016:0.3 D037:0.5 F027:0.3',
    extraCodes: 'D001 U* P*',
    methods: 'H040:7 H141:2 H129',
    containers: 'DF:4 DM:3 CF:2',
    technicalNames: ['Phenol', 'Acrylamide', 'Aniline', 'Pentachlorophenol', 'Acrylonitrile', 'Benzidine'],
  }),
  labPack: family({
    dot: 'UN1993:2 UN2810 UN1760 UN3175 UN1479 UN3088:0.5 UN2811',
    codes: 'LABP:3 D001:2 D002',
    extraCodes: 'D001 D002 D003 U* P*',
    methods: 'H040:6 H141:3 H129',
    containers: 'DF:6 DM:3 CF',
    // Lab packs hold a bit of everything: constituents come from each entry's hazard class.
    technicalNames: [],
  }),
  pharmaceutical: family({
    dot: 'UN3077:2 UN3082 UN1993 UN2811 NA3077',
    codes: 'PHRM:3 PHARMS P* U* D001',
    extraCodes: 'D001 D002 P* U*',
    methods: 'H040:8 H141:2',
    containers: 'CF:4 DF:3 BA DM',
    technicalNames: ['Epinephrine', 'Warfarin', 'Nicotine', 'Cyclophosphamide', 'Lindane'],
  }),
  chemicalProcess: family({
    dot: 'NA3077:2 NA3082:2 UN3082 UN2810 UN1993',
    codes: 'K*:5 D001 F002:0.5 F005:0.5',
    extraCodes: 'D001 D018 D022 D028 F001 F002 F005 K*',
    methods: 'H040:5 H132:2 H134:1.5 H141 H050',
    containers: 'TT:3 DM:3 CM:2 TP:1.5 TC:0.3 HG:0.2',
    technicalNames: [...ORGANICS, 'Vinyl chloride', 'Ethylene dichloride', 'Acetonitrile'],
  }),
  plating: family({
    dot: 'UN3264:2 UN3266:2 NA3077:3 UN1760 UN3077 UN1759',
    codes: 'F006:4 F007:2 F008 F009:2 D007:2 D002:2 F019:0.5',
    extraCodes: 'D002 D007 D006 D008 D003 D010',
    methods: 'H070:3 H010:2 H132:1.5 H110:1.5 H141:1.5 H121',
    containers: 'DF:3 DM:4 CM TP TT:0.5',
    technicalNames: ['Chromium', 'Nickel', 'Cadmium', 'Copper cyanide', 'Zinc', 'Sodium cyanide'],
  }),
  dryCleaning: family({
    dot: 'NA3082:3 UN3082 NA3077:2',
    codes: 'F002:5 D039:3',
    extraCodes: 'D039 F002',
    methods: 'H020:4 H040:2 H141:3',
    containers: 'DM:5 DF:3',
    technicalNames: ['Tetrachloroethylene'],
  }),
} satisfies Record<string, WasteFamily>;

/** Constituents by main hazard class, for families that ship under several classes. */
export const TECHNICAL_NAMES_BY_CLASS: Record<string, readonly string[]> = {
  '3': SOLVENTS,
  '4.1': SOLVENTS,
  '4.2': ['Linseed oil', 'Activated carbon'],
  '5.1': ['Sodium nitrate', 'Potassium permanganate', 'Calcium hypochlorite'],
  '6.1': ['Phenol', 'Aniline', 'Acrylonitrile', 'Pentachlorophenol'],
  '8': ['Hydrochloric acid', 'Sulfuric acid', 'Nitric acid', 'Sodium hydroxide'],
};

export type FamilyName = keyof typeof FAMILIES;

/** Physical traits of each container type: tons when full, bulk (one per line or a few) or packaged. */
export const CONTAINERS: Record<string, { tons: number; bulk: boolean; maxCount: number }> = {
  BA: { tons: 0.05, bulk: false, maxCount: 40 },
  CF: { tons: 0.08, bulk: false, maxCount: 40 },
  CM: { tons: 6, bulk: true, maxCount: 4 },
  CW: { tons: 0.3, bulk: false, maxCount: 20 },
  CY: { tons: 0.03, bulk: false, maxCount: 20 },
  DF: { tons: 0.15, bulk: false, maxCount: 40 },
  DM: { tons: 0.22, bulk: false, maxCount: 40 },
  DT: { tons: 15, bulk: true, maxCount: 2 },
  DW: { tons: 0.2, bulk: false, maxCount: 40 },
  HG: { tons: 60, bulk: true, maxCount: 1 },
  TC: { tons: 70, bulk: true, maxCount: 1 },
  TP: { tons: 1.2, bulk: true, maxCount: 6 },
  TT: { tons: 18, bulk: true, maxCount: 1 },
};

/** Hazard class (subsidiary classes in parentheses) and allowed packing groups, from 49 CFR 172.101. */
const HAZARDS: Record<string, readonly [string, readonly string[]]> = {
  NA3077: ['9', ['III']],
  NA3082: ['9', ['III']],
  UN3077: ['9', ['III']],
  UN3082: ['9', ['III']],
  UN1090: ['3', ['II']],
  UN1133: ['3', ['II', 'III']],
  UN1139: ['3', ['II', 'III']],
  UN1203: ['3', ['II']],
  UN1219: ['3', ['II']],
  UN1230: ['3 (6.1)', ['II']],
  UN1263: ['3', ['II', 'III']],
  UN1268: ['3', ['II', 'III']],
  UN1294: ['3', ['II']],
  UN1307: ['3', ['II', 'III']],
  UN1479: ['5.1', ['II', 'III']],
  UN1759: ['8', ['II', 'III']],
  UN1760: ['8', ['II', 'III']],
  UN1789: ['8', ['II', 'III']],
  UN1791: ['8', ['II', 'III']],
  UN1824: ['8', ['II', 'III']],
  UN1830: ['8', ['II']],
  UN1866: ['3', ['II', 'III']],
  UN1992: ['3 (6.1)', ['II', 'III']],
  UN1993: ['3', ['II', 'III', 'I']],
  UN2794: ['8', []],
  UN2809: ['8 (6.1)', ['III']],
  UN2810: ['6.1', ['II', 'III', 'I']],
  UN2811: ['6.1', ['II', 'III']],
  UN2922: ['8 (6.1)', ['II', 'III']],
  UN2924: ['3 (8)', ['II', 'III']],
  UN3028: ['8', []],
  UN3088: ['4.2', ['II', 'III']],
  UN3175: ['4.1', ['II']],
  UN3264: ['8', ['II', 'III']],
  UN3266: ['8', ['II', 'III']],
  UN3286: ['3 (6.1, 8)', ['II']],
  UN3291: ['6.2', ['II']],
};

/** Aerosols (UN1950) take their class from the kind named in the entry. */
function aerosolClass(name: string): string {
  if (/non-flammable/i.test(name)) return '2.2';
  if (/corrosive/i.test(name)) return '2.2 (8)';
  if (/poison/i.test(name)) return '2.2 (6.1)';
  return '2.1';
}

/**
 * The proper shipping name as written on a shipping paper: the table's descriptive text in italics
 * ("including …", "(each not exceeding 1 L capacity)") and all but the first of "… or …" alternatives dropped.
 */
export function shippingName(tableName: string): string {
  let name = tableName;
  for (const cut of [' (each', ', Packing Group', ' (engine', ' (includes', ' including ', ' includes ']) {
    const at = name.indexOf(cut);
    if (at > 0) name = name.slice(0, at);
  }
  const or = name.indexOf(' or ');
  if (or > 0) name = name.slice(0, or);
  return name.replace(/,\s*$/, '');
}

export function hazardOf(entry: DotEntry): { hazardClass: string; packingGroups: readonly string[] } {
  if (entry.idNumber === 'UN1950')
    return { hazardClass: aerosolClass(entry.shippingName), packingGroups: [] };
  const hazard = HAZARDS[entry.idNumber];
  if (!hazard) throw new RangeError(`no hazard class known for ${entry.idNumber}`);
  return { hazardClass: hazard[0], packingGroups: hazard[1] };
}

/**
 * The basic description of a hazardous-waste line (49 CFR 172.202): "RQ, UN1993, Waste Flammable liquids,
 * n.o.s., (Acetone, Xylene), 3, PG II". "Waste" leads the name unless the name already says waste.
 */
export function describeDot(
  entry: DotEntry,
  options: { technicalNames: readonly string[]; packingGroup: string; reportableQuantity: boolean },
): string {
  const { hazardClass } = hazardOf(entry);
  const name = shippingName(entry.shippingName);
  const parts: string[] = [];
  if (options.reportableQuantity) parts.push('RQ');
  parts.push(entry.idNumber, /waste/i.test(name) ? name : `Waste ${name}`);
  if (/n\.o\.s\./i.test(name) && options.technicalNames.length > 0) {
    parts.push(`(${options.technicalNames.join(', ')})`);
  }
  parts.push(hazardClass);
  if (options.packingGroup !== '') parts.push(`PG ${options.packingGroup}`);
  return parts.join(', ');
}
