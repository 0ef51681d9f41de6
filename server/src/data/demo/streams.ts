/**
 * The waste streams of the demo generators. A generator ships the same few streams again and again (the
 * same drums of spent solvent to the same fuel blender), so each generator owns a handful of streams made
 * once, and every waste line repeats one of them with its own container count and weight.
 *
 * Streams are held column-wise in flat arrays: the manifest loop reads millions of lines from them.
 */
import type { DotEntry, ReferenceData } from '../reference.ts';
import type { Random } from './random.ts';
import { Weighted } from './random.ts';
import {
  CONTAINERS,
  FAMILIES,
  TECHNICAL_NAMES_BY_CLASS,
  type FamilyName,
  type WasteFamily,
  describeDot,
  hazardOf,
} from './waste-profiles.ts';

/** Federal generator classes, largest first; they set how much and in what containers a site ships. */
export const SIZE_CLASSES = ['LQG', 'SQG', 'VSQG', 'N'] as const;
export type SizeClass = 0 | 1 | 2 | 3;

/** How much more (or less) often each class uses bulk containers (tank trucks, roll-offs). */
const BULK_FACTOR = [1.5, 0.5, 0.1, 0.3];
/** Typical packaged containers on one line, by class. */
const TYPICAL_CONTAINERS = [8, 4, 1.5, 2];
const EXTRA_CODE_COUNT = new Weighted([
  [0, 45],
  [1, 30],
  [2, 17],
  [3, 8],
] as const);
const NON_DOT_SHARE = 0.03;
const REPORTABLE_QUANTITY_SHARE = 0.12;

interface ResolvedFamily {
  spec: WasteFamily;
  /** All its DOT entries share one hazard class, so its own constituent list fits every entry. */
  singleClass: boolean;
  dot: Weighted<string>;
  codes: Weighted<string>;
  methods: Weighted<string>;
  containersBySize: Weighted<string>[];
}

export class StreamTable {
  readonly dotId: string[] = [];
  readonly dotDesc: string[] = [];
  readonly hazIndicator: string[] = [];
  readonly wasteCodes: string[] = [];
  readonly methodCode: string[] = [];
  readonly methodText: string[] = [];
  readonly container: string[] = [];
  /** Tons in one full container of this stream. */
  readonly tonsPerContainer: number[] = [];
  /** Typical containers on one line; bulk streams ship one or a few. */
  readonly typicalCount: number[] = [];
  readonly maxCount: number[] = [];

  private readonly families = new Map<string, ResolvedFamily>();
  private readonly dotNames = new Map<string, DotEntry[]>();
  private readonly codesByLetter = new Map<string, string[]>();
  private readonly codeDescriptions = new Map<string, string>();
  private readonly methodTexts = new Map<string, string>();

  constructor(reference: ReferenceData) {
    for (const entry of reference.dotEntries) {
      this.dotNames.set(entry.idNumber, [...(this.dotNames.get(entry.idNumber) ?? []), entry]);
    }
    for (const { code, description } of reference.wasteCodes) {
      this.codeDescriptions.set(code, description);
      if (/^[KPU]\d{3}$/.test(code)) {
        const letter = code.charAt(0);
        this.codesByLetter.set(letter, [...(this.codesByLetter.get(letter) ?? []), code]);
      }
    }
    // Waste lines carry RCRAInfo's short text; where none is known, the long description in its upper case.
    for (const method of reference.managementMethods) {
      this.methodTexts.set(method.code, method.shortDescription || method.description.toUpperCase());
    }
    const containerCodes = new Set(reference.containerTypes.map((type) => type.code));
    for (const [name, spec] of Object.entries(FAMILIES) as [FamilyName, WasteFamily][]) {
      this.checkFamily(name, spec, containerCodes);
      const classes = new Set(
        spec.dot.flatMap(([id]) =>
          (this.dotNames.get(id) ?? []).map((entry) => hazardOf(entry).hazardClass.split(' ')[0]),
        ),
      );
      this.families.set(name, {
        spec,
        singleClass: classes.size === 1,
        dot: new Weighted(spec.dot),
        codes: new Weighted(spec.codes),
        methods: new Weighted(spec.methods),
        containersBySize: BULK_FACTOR.map(
          (factor) =>
            new Weighted(
              spec.containers.map(
                ([code, weight]) => [code, CONTAINERS[code]?.bulk ? weight * factor : weight] as const,
              ),
            ),
        ),
      });
    }
  }

  get size(): number {
    return this.dotId.length;
  }

  /** Refuses a profile that names a code, method, container or DOT id the reference lists do not hold. */
  private checkFamily(name: string, spec: WasteFamily, containerCodes: Set<string>): void {
    const fail = (what: string) => {
      throw new RangeError(`waste family ${name}: ${what} is not in the reference lists`);
    };
    for (const [id] of spec.dot) {
      if (!this.dotNames.has(id)) fail(`DOT id ${id}`);
      for (const entry of this.dotNames.get(id) ?? []) hazardOf(entry);
    }
    for (const code of [...spec.codes.map(([code]) => code), ...spec.extraCodes]) {
      const known = code.endsWith('*')
        ? this.codesByLetter.has(code.charAt(0))
        : this.codeDescriptions.has(code);
      if (!known) fail(`waste code ${code}`);
    }
    for (const [code] of spec.methods) if (!this.methodTexts.has(code)) fail(`management method ${code}`);
    for (const [code] of spec.containers) {
      if (!containerCodes.has(code) || !CONTAINERS[code]) fail(`container type ${code}`);
    }
  }

  private resolveCode(code: string, random: Random): string {
    return code.endsWith('*') ? random.pick(this.codesByLetter.get(code.charAt(0)) ?? []) : code;
  }

  /**
   * Constituents for an n.o.s. name: the hazardous constituent of a D004–D043 code, else the family's list,
   * or, for a family that ships under several hazard classes (lab packs), constituents of the entry's class.
   */
  private technicalNames(
    family: ResolvedFamily,
    hazardClass: string,
    primaryCode: string,
    random: Random,
  ): string[] {
    const constituent = /^D0(0[4-9]|[1-3]\d|4[0-3])$/.test(primaryCode)
      ? this.codeDescriptions.get(primaryCode)
      : undefined;
    if (constituent) {
      const name = constituent.split(' (')[0] ?? constituent;
      return [name.charAt(0) + name.slice(1).toLowerCase()];
    }
    const mainClass = hazardClass.split(' ')[0] ?? hazardClass;
    const names =
      family.singleClass || mainClass === '9'
        ? family.spec.technicalNames
        : (TECHNICAL_NAMES_BY_CLASS[mainClass] ?? []);
    if (names.length === 0) return [];
    const first = random.pick(names);
    const second = random.pick(names);
    return random.chance(0.6) && second !== first ? [first, second] : [first];
  }

  /** Adds one stream of `familyName` for a generator of class `size`; returns its index. */
  add(familyName: string, size: SizeClass, random: Random): number {
    const family = this.families.get(familyName);
    if (!family) throw new RangeError(`unknown waste family ${familyName}`);
    const { spec } = family;

    const primary = this.resolveCode(family.codes.pick(random), random);
    const codes = new Set([primary]);
    const extra = EXTRA_CODE_COUNT.pick(random);
    for (let attempt = 0; codes.size < 1 + extra && attempt < 6; attempt += 1) {
      codes.add(this.resolveCode(random.pick(spec.extraCodes), random));
    }

    const method = family.methods.pick(random);
    const container = (family.containersBySize[size] ?? family.containersBySize[0])?.pick(random) ?? 'DM';
    const traits = CONTAINERS[container] ?? { tons: 0.2, bulk: false, maxCount: 40 };

    if (random.chance(NON_DOT_SHARE)) {
      this.dotId.push('');
      this.dotDesc.push('Non-DOT regulated material');
      this.hazIndicator.push('N');
    } else {
      const entry = random.pick(this.dotNames.get(family.dot.pick(random)) ?? []);
      const { hazardClass, packingGroups: groups } = hazardOf(entry);
      // The first packing group listed is the usual one: 70 %, then 25 % and 5 %.
      const roll = random.next();
      const packingGroup =
        groups[groups.length === 1 || roll < 0.7 ? 0 : groups.length === 2 || roll < 0.95 ? 1 : 2] ?? '';
      this.dotId.push(entry.idNumber);
      this.dotDesc.push(
        describeDot(entry, {
          technicalNames: this.technicalNames(family, hazardClass, primary, random),
          packingGroup,
          reportableQuantity: random.chance(REPORTABLE_QUANTITY_SHARE),
        }),
      );
      this.hazIndicator.push('Y');
    }
    this.wasteCodes.push([...codes].sort().join(','));
    this.methodCode.push(method);
    this.methodText.push(`${method} - ${this.methodTexts.get(method) ?? ''}`);
    this.container.push(container);
    this.tonsPerContainer.push(traits.tons * random.spread(0.25));
    this.typicalCount.push(traits.bulk ? 1 : (TYPICAL_CONTAINERS[size] ?? 2) * random.spread(0.6));
    this.maxCount.push(traits.maxCount);
    return this.dotId.length - 1;
  }
}
