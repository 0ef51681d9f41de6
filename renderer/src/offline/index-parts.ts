/**
 * A pack's indexes cut into records the browser will store. Chromium's IndexedDB refuses a value whose
 * serialized form is over 133,169,152 bytes ("The serialized keys and/or value are too large"), and the
 * indexes of a pack of all 1M demo manifests serialize to 233,652,114: stored whole, they failed, and every
 * start of the app opened that pack by building them again (45 to 60 s before its first offline answer).
 *
 * `cutIndexes` moves every string and typed array longer than a part out of the indexes, in slices of at most
 * `partBytes` each, leaving in their place a note of where they went; `joinIndexes` puts them back. Small
 * packs' indexes come through unchanged, with no parts. Pure: no storage here (stored-pack.ts writes them).
 */

/** The most bytes one part holds: far under the browser's limit, whatever the text's characters. */
export const PART_BYTES = 16 * 1024 * 1024;

const TYPED = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
} as const;
type TypedName = keyof typeof TYPED;
type Typed = InstanceType<(typeof TYPED)[TypedName]>;

/** One slice of a long string or typed array, as one record stores it. */
export type IndexPart = string | Typed;

/** The key of a note; no index object has a key of this name. */
const CUT = '\u0000cut';

/** What stands where a long value was: its kind and the parts that hold it, in order. */
interface CutNote {
  [CUT]: 'string' | TypedName;
  parts: number[];
}

function typedName(value: ArrayBufferView): TypedName | undefined {
  const name = value.constructor.name;
  return name in TYPED ? (name as TypedName) : undefined;
}

function isNote(value: object): value is CutNote {
  return CUT in value;
}

/** The value with its long strings and typed arrays moved to `parts` (in order), and how many parts it took. */
export function cutIndexes<T>(value: T, partBytes = PART_BYTES): { shell: unknown; parts: IndexPart[] } {
  const parts: IndexPart[] = [];
  const take = (piece: IndexPart) => parts.push(piece) - 1;
  const cut = (node: unknown): unknown => {
    if (typeof node === 'string') {
      // Two bytes a character at most, as the browser serializes a string.
      const chars = Math.floor(partBytes / 2);
      if (node.length <= chars) return node;
      const taken: number[] = [];
      for (let at = 0; at < node.length; at += chars) taken.push(take(node.slice(at, at + chars)));
      return { [CUT]: 'string', parts: taken } satisfies CutNote;
    }
    if (ArrayBuffer.isView(node)) {
      const name = typedName(node);
      if (!name || node.byteLength <= partBytes) return node;
      const typed = node as Typed;
      const per = Math.max(1, Math.floor(partBytes / typed.BYTES_PER_ELEMENT));
      const taken: number[] = [];
      for (let at = 0; at < typed.length; at += per) taken.push(take(typed.slice(at, at + per)));
      return { [CUT]: name, parts: taken } satisfies CutNote;
    }
    if (Array.isArray(node)) return node.map(cut);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, cut(child)]));
    }
    return node;
  };
  return { shell: cut(value), parts };
}

/** The value `cutIndexes` cut, whole again from its shell and its parts. */
export function joinIndexes<T>(shell: unknown, parts: readonly IndexPart[]): T {
  const part = (index: number) => {
    const piece = parts[index];
    if (piece === undefined) throw new Error(`the stored indexes lack their part ${index}`);
    return piece;
  };
  const join = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return node;
    if (Array.isArray(node)) return node.map(join);
    if (!isNote(node)) {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, join(child)]));
    }
    const pieces = node.parts.map(part);
    const kind = node[CUT];
    if (kind === 'string') return pieces.join('');
    const whole = new TYPED[kind](pieces.reduce((sum, piece) => sum + piece.length, 0));
    let at = 0;
    for (const piece of pieces) {
      if (typeof piece === 'string' || typedName(piece) !== kind) {
        throw new Error(`the stored indexes' part of a ${kind} is not one`);
      }
      whole.set(piece, at);
      at += piece.length;
    }
    return whole;
  };
  return join(shell) as T;
}
