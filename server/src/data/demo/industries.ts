/**
 * What each industry of the reference NAICS list looks like as a hazardous-waste generator: how common it is
 * among manifest shippers, how its sites are named, its SIC equivalents (1987 SIC manual titles), whether
 * RCRAInfo would count it as industrial, and the kinds of waste it ships (waste-profiles.ts).
 */

export interface Industry {
  naics: string;
  /** Relative number of sites: repair shops and hospitals are many, refineries few. */
  weight: number;
  isIndustry: boolean;
  /** Name patterns: {prefix} a place-like word, {surname}, {city}, {co} a company suffix. */
  names: readonly string[];
  sic: readonly (readonly [number, string])[];
  /** Kinds of waste shipped, weighted: "paint:5 solvent:3 aerosol". */
  families: string;
  /** Land type other than private, when the industry is usually public (a base, a state university). */
  publicLand?: string;
}

export const INDUSTRIES: readonly Industry[] = [
  {
    naics: '221112',
    weight: 1.5,
    isIndustry: true,
    names: [
      '{prefix} Generating Station',
      '{city} Power Plant',
      '{prefix} Energy Center',
      '{prefix} Power{co}',
    ],
    sic: [[4911, 'Electric Services']],
    families: 'hazardousSolid:3 acid:1.5 petroleum:2 mercury battery',
  },
  {
    naics: '238320',
    weight: 3,
    isIndustry: false,
    names: [
      '{surname} Painting Contractors{co}',
      '{prefix} Painting & Wallcovering{co}',
      '{surname} & Sons Painting',
    ],
    sic: [[1721, 'Painting and Paper Hanging']],
    families: 'paint:6 solvent:2 aerosol',
  },
  {
    naics: '324110',
    weight: 1,
    isIndustry: true,
    names: ['{prefix} Refining{co}', '{prefix} Petroleum Refinery', '{city} Refinery'],
    sic: [[2911, 'Petroleum Refining']],
    families: 'refinery:6 petroleum:3 hazardousLiquid:2 acid labPack:0.3',
  },
  {
    naics: '325110',
    weight: 1,
    isIndustry: true,
    names: ['{prefix} Petrochemicals{co}', '{prefix} Olefins{co}', '{prefix} Chemical Complex'],
    sic: [
      [2869, 'Industrial Organic Chemicals, NEC'],
      [2865, 'Cyclic Organic Crudes and Intermediates, and Organic Dyes and Pigments'],
    ],
    families: 'chemicalProcess:4 hazardousLiquid:2 solvent:2 refinery',
  },
  {
    naics: '325180',
    weight: 1.5,
    isIndustry: true,
    names: ['{prefix} Chlor-Alkali{co}', '{prefix} Inorganics{co}', '{prefix} Chemical Co'],
    sic: [
      [2819, 'Industrial Inorganic Chemicals, NEC'],
      [2812, 'Alkalies and Chlorine'],
    ],
    families: 'base:3 acid:3 chemicalProcess:2 mercury:0.5 hazardousSolid',
  },
  {
    naics: '325199',
    weight: 2,
    isIndustry: true,
    names: ['{prefix} Organics{co}', '{prefix} Chemical Works', '{prefix} Chemical{co}'],
    sic: [[2869, 'Industrial Organic Chemicals, NEC']],
    families: 'chemicalProcess:4 solvent:3 toxic:2 hazardousLiquid',
  },
  {
    naics: '325211',
    weight: 2,
    isIndustry: true,
    names: ['{prefix} Polymers{co}', '{prefix} Resins{co}', '{prefix} Plastics{co}'],
    sic: [[2821, 'Plastics Materials, Synthetic Resins, and Nonvulcanizable Elastomers']],
    families: 'chemicalProcess:2 solvent:3 hazardousLiquid:1.5 hazardousSolid',
  },
  {
    naics: '325412',
    weight: 2.5,
    isIndustry: true,
    names: ['{prefix} Pharmaceuticals{co}', '{surname} Laboratories{co}', '{prefix} Therapeutics{co}'],
    sic: [[2834, 'Pharmaceutical Preparations']],
    families: 'pharmaceutical:3 solvent:4 toxic:2 labPack',
  },
  {
    naics: '325510',
    weight: 3,
    isIndustry: true,
    names: ['{prefix} Paint{co}', '{prefix} Coatings{co}', '{surname} Paint & Varnish{co}'],
    sic: [[2851, 'Paints, Varnishes, Lacquers, Enamels, and Allied Products']],
    families: 'paint:6 solvent:3 hazardousSolid',
  },
  {
    naics: '325998',
    weight: 4,
    isIndustry: true,
    names: ['{prefix} Chemical{co}', '{prefix} Specialty Chemicals{co}', '{surname} Chemical{co}'],
    sic: [[2899, 'Chemicals and Chemical Preparations, NEC']],
    families: 'solvent:2 acid:1.5 base toxic:1.5 chemicalProcess hazardousLiquid:1.5 hazardousSolid',
  },
  {
    naics: '331110',
    weight: 1.5,
    isIndustry: true,
    names: ['{prefix} Steel{co}', '{city} Steel Works', '{prefix} Alloys{co}'],
    sic: [
      [3312, 'Steel Works, Blast Furnaces (Including Coke Ovens), and Rolling Mills'],
      [3313, 'Electrometallurgical Products, Except Steel'],
    ],
    families: 'hazardousSolid:5 acid:2 petroleum',
  },
  {
    naics: '332812',
    weight: 3,
    isIndustry: true,
    names: ['{prefix} Powder Coating{co}', '{prefix} Metal Coatings{co}', '{surname} Galvanizing{co}'],
    sic: [[3479, 'Coating, Engraving, and Allied Services, NEC']],
    families: 'plating:3 paint:3 solvent:1.5 acid hazardousSolid',
  },
  {
    naics: '332813',
    weight: 4,
    isIndustry: true,
    names: [
      '{prefix} Plating{co}',
      '{city} Metal Finishing{co}',
      '{surname} Anodizing{co}',
      '{prefix} Metal Finishing{co}',
    ],
    sic: [[3471, 'Electroplating, Plating, Polishing, Anodizing, and Coloring']],
    families: 'plating:6 acid:2 base:2 hazardousSolid',
  },
  {
    naics: '334413',
    weight: 2,
    isIndustry: true,
    names: ['{prefix} Semiconductor{co}', '{prefix} Microsystems{co}', '{prefix} Silicon{co}'],
    sic: [[3674, 'Semiconductors and Related Devices']],
    families: 'acid:4 base:2 solvent:3 toxic',
  },
  {
    naics: '336111',
    weight: 1,
    isIndustry: true,
    names: ['{prefix} Motors Assembly Plant', '{prefix} Automotive Assembly{co}'],
    sic: [[3711, 'Motor Vehicles and Passenger Car Bodies']],
    families: 'paint:4 solvent:2 plating:1.5 hazardousSolid:1.5 battery:0.5 hazardousLiquid',
  },
  {
    naics: '336411',
    weight: 2,
    isIndustry: true,
    names: [
      '{prefix} Aerospace{co}',
      '{prefix} Aircraft Components{co}',
      '{surname} Aviation Structures{co}',
    ],
    sic: [[3721, 'Aircraft']],
    families: 'paint:3 solvent:3 plating:2 acid aerosol hazardousLiquid',
  },
  {
    naics: '424690',
    weight: 3,
    isIndustry: false,
    names: [
      '{prefix} Chemical Supply{co}',
      '{surname} Chemical Distributors{co}',
      '{prefix} Industrial Chemicals{co}',
    ],
    sic: [[5169, 'Chemicals and Allied Products, NEC']],
    families: 'solvent:2 acid:1.5 base toxic:1.5 labPack hazardousLiquid',
  },
  {
    naics: '447110',
    weight: 6,
    isIndustry: false,
    names: ['{prefix} Fuel Stop', '{surname} Quick Mart', '{prefix} Travel Center', '{prefix} Food & Fuel'],
    sic: [
      [5541, 'Gasoline Service Stations'],
      [5411, 'Grocery Stores'],
    ],
    families: 'petroleum:5 hazardousLiquid:2 hazardousSolid aerosol:0.5',
  },
  {
    naics: '541380',
    weight: 4,
    isIndustry: false,
    names: [
      '{prefix} Analytical Laboratories{co}',
      '{surname} Testing Services{co}',
      '{prefix} Environmental Labs{co}',
    ],
    sic: [[8734, 'Testing Laboratories']],
    families: 'labPack:5 solvent:3 acid:1.5 toxic mercury:0.5',
  },
  {
    naics: '562112',
    weight: 2,
    isIndustry: true,
    names: [
      '{prefix} Environmental Services{co}',
      '{prefix} Waste Services{co}',
      '{surname} Environmental{co}',
    ],
    sic: [
      [4953, 'Refuse Systems'],
      [4212, 'Local Trucking Without Storage'],
    ],
    families: 'labPack:3 solvent:2 aerosol battery mercury hazardousSolid hazardousLiquid paint',
  },
  {
    naics: '562211',
    weight: 1,
    isIndustry: true,
    names: ['{prefix} Environmental Treatment{co}', '{prefix} Disposal Services{co}'],
    sic: [[4953, 'Refuse Systems']],
    families: 'hazardousLiquid:2 hazardousSolid:3 solvent chemicalProcess acid',
  },
  {
    naics: '562910',
    weight: 3,
    isIndustry: true,
    names: [
      '{prefix} Remediation{co}',
      '{prefix} Site Services{co}',
      '{surname} Environmental Contracting{co}',
    ],
    sic: [
      [4959, 'Sanitary Services, NEC'],
      [1799, 'Special Trade Contractors, NEC'],
    ],
    families: 'hazardousSolid:5 hazardousLiquid:3 petroleum',
  },
  {
    naics: '562998',
    weight: 2,
    isIndustry: true,
    names: ['{prefix} Industrial Services{co}', '{prefix} Tank Cleaning{co}'],
    sic: [[4959, 'Sanitary Services, NEC']],
    families: 'hazardousLiquid:3 hazardousSolid:2 petroleum:2 solvent',
  },
  {
    naics: '611310',
    weight: 3,
    isIndustry: false,
    names: [
      '{prefix} College',
      '{surname} University',
      '{prefix} Community College',
      '{surname} Institute of Technology',
    ],
    sic: [[8221, 'Colleges, Universities, and Professional Schools']],
    families: 'labPack:5 solvent:2 acid mercury:0.5 pharmaceutical:0.5 battery:0.5',
    publicLand: 'State',
  },
  {
    naics: '622110',
    weight: 6,
    isIndustry: false,
    names: [
      '{city} General Hospital',
      'St. {surname} Medical Center',
      '{prefix} Regional Medical Center',
      '{prefix} Health Hospital',
    ],
    sic: [[8062, 'General Medical and Surgical Hospitals']],
    families: 'pharmaceutical:5 labPack:2 mercury solvent aerosol:0.5 battery:0.5',
  },
  {
    naics: '811111',
    weight: 10,
    isIndustry: false,
    names: ['{prefix} Auto Repair', "{surname}'s Garage", '{surname} Automotive{co}', '{city} Auto Service'],
    sic: [[7538, 'General Automotive Repair Shops']],
    families: 'solvent:3 aerosol:2 petroleum:2 battery:1.5 hazardousLiquid paint:0.5',
  },
  {
    naics: '811121',
    weight: 9,
    isIndustry: false,
    names: ['{prefix} Collision Center', '{surname} Auto Body{co}', '{prefix} Paint & Body'],
    sic: [[7532, 'Top, Body, and Upholstery Repair Shops and Paint Shops']],
    families: 'paint:5 solvent:3 aerosol:1.5 hazardousSolid:0.5',
  },
  {
    naics: '812320',
    weight: 3,
    isIndustry: false,
    names: ['{prefix} Cleaners', '{surname} Dry Cleaning', '{prefix} Laundry & Cleaners'],
    sic: [
      [7216, 'Drycleaning Plants, Except Rug Cleaning'],
      [7212, 'Garment Pressing, and Agents for Laundries and Drycleaners'],
    ],
    families: 'dryCleaning:6 solvent',
  },
  {
    naics: '928110',
    weight: 1.5,
    isIndustry: false,
    names: [
      '{surname} Army Depot',
      '{surname} Air Force Base',
      'Naval Support Activity {city}',
      '{surname} Air National Guard Base',
    ],
    sic: [[9711, 'National Security']],
    families: 'solvent:2 paint:2 petroleum:2 battery aerosol hazardousSolid labPack hazardousLiquid',
    publicLand: 'Federal',
  },
];
