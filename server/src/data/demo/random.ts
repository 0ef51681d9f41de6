/**
 * Seeded pseudo-random numbers for the demo dataset: the same seed gives the same dataset on every machine.
 * sfc32 (Chris Doty-Humphrey's small fast counter) seeded through cyrb128: fast in plain 32-bit integer
 * arithmetic, and good enough for synthetic data. Never Math.random, which cannot be seeded.
 */

/** Four 32-bit words hashed from a text, to seed independent streams ("seed:generators", …). */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = h2 ^ Math.imul(h1 ^ code, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ code, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ code, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ code, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** One independent stream per (seed, stream name). */
  constructor(seed: number, stream: string) {
    [this.a, this.b, this.c, this.d] = cyrb128(`${seed}:${stream}`);
    // The first outputs of a fresh sfc32 state are poorly mixed; discard them.
    for (let index = 0; index < 15; index += 1) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A standard normal deviate (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** A log-normal factor with median 1: right-skewed like real quantities. */
  spread(sigma: number): number {
    return Math.exp(sigma * this.normal());
  }

  /** A fixed-length string of decimal digits. */
  digits(length: number): string {
    let text = '';
    for (let index = 0; index < length; index += 1) text += String(this.int(10));
    return text;
  }

  shuffle<V>(items: { length: number; [index: number]: V }): void {
    for (let index = items.length - 1; index > 0; index -= 1) {
      const other = this.int(index + 1);
      const held = items[index] as V;
      items[index] = items[other] as V;
      items[other] = held;
    }
  }
}

/** Picks among fixed items with fixed relative weights in O(log n). */
export class Weighted<T> {
  readonly items: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: readonly (readonly [T, number])[]) {
    if (entries.length === 0) throw new RangeError('a weighted choice needs at least one item');
    this.items = entries.map(([item]) => item);
    this.cumulative = new Float64Array(entries.length);
    let total = 0;
    entries.forEach(([, weight], index) => {
      if (!(weight > 0)) throw new RangeError(`weights must be positive, got ${weight}`);
      total += weight;
      this.cumulative[index] = total;
    });
    this.total = total;
  }

  pickIndex(random: Random): number {
    const target = random.next() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.cumulative[middle] ?? 0) > target) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  pick(random: Random): T {
    return this.items[this.pickIndex(random)] as T;
  }
}

export type Weights = readonly (readonly [string, number])[];

/** "A:3 B C:0.5" → [['A', 3], ['B', 1], ['C', 0.5]]: weighted lists kept short enough to read. */
export function weights(text: string): Weights {
  return text
    .trim()
    .split(/\s+/)
    .map((item) => {
      const [value = '', weight = '1'] = item.split(':');
      return [value, Number(weight)] as const;
    });
}
