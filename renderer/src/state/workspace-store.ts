/**
 * What the user has set up in one workspace: filters (with the lookup's text of each picked value), search,
 * sort, and the columns shown with their order and widths. Persisted per user (./user-storage.ts), so it
 * survives switching workspaces and restarting the app, and the next user starts from their own. UI state
 * only; the data lives in the data layer.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { z } from 'zod';
import { SearchKey } from '../../../shared/api/index.ts';
import { perUser, userStorage } from './user-storage.ts';

/** A filterFields object: lists of values, plus (for manifests) single date bounds. */
export type FilterFields = Record<string, readonly string[] | string | undefined>;

export type SortState = { field: string; direction: 'asc' | 'desc' };

/** Lookup texts by member, then by picked value; only where the text says more than the value. */
export type PickedTexts = Record<string, Record<string, string>>;

export type WorkspaceState<F extends FilterFields> = {
  filterFields: F;
  /**
   * What the lookup showed for each picked value (NAICS: "code - description"; for a grouped lookup, the
   * heading it was under), so a chip can say what a bare code means without asking the server again; kept
   * only for values still picked.
   */
  pickedTexts: PickedTexts;
  searchKey: string;
  /** undefined: the server's default order. */
  sort: SortState | undefined;
  /** Fields shown in the grid; undefined: the workspace's default columns. */
  columns: string[] | undefined;
  /** Every field in the order the user dragged the columns into; undefined: the catalogue's order. */
  columnOrder: string[] | undefined;
  /** Widths (px) the user dragged columns to, by field; other columns keep the workspace's layout. */
  columnWidths: Record<string, number>;
  /** `texts`: the lookup's text of newly picked values, by value. */
  setMember: (
    member: keyof F & string,
    value: F[keyof F] | undefined,
    texts?: Readonly<Record<string, string>>,
  ) => void;
  /** Several members at once, so a request never sees half of a change (both ends of a date range). */
  setMembers: (values: Partial<F>) => void;
  setSearchKey: (searchKey: string) => void;
  setSort: (sort: SortState | undefined) => void;
  setColumns: (columns: string[] | undefined) => void;
  setColumnOrder: (order: string[]) => void;
  /** Merged into the saved widths. */
  setColumnWidths: (widths: Readonly<Record<string, number>>) => void;
  /** The workspace's default columns, in catalogue order, at their default widths. */
  resetColumns: () => void;
  clearAll: () => void;
};

export type WorkspaceStore<F extends FilterFields> = UseBoundStore<StoreApi<WorkspaceState<F>>>;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

function merged<F extends FilterFields>(fields: F, values: Partial<F>): F {
  const next: F = { ...fields };
  for (const [member, value] of Object.entries(values) as [keyof F, F[keyof F]][]) {
    if (isEmpty(value)) delete next[member];
    else next[member] = value;
  }
  return next;
}

/** The texts of values still picked, with `texts` (member → value → text) added first. */
function keptTexts(fields: FilterFields, current: PickedTexts, texts: PickedTexts = {}): PickedTexts {
  const kept: PickedTexts = {};
  for (const [member, value] of Object.entries(fields)) {
    if (!Array.isArray(value)) continue;
    const known = { ...current[member], ...texts[member] };
    const entries = value.flatMap((picked: string) => {
      const text = known[picked];
      return text !== undefined && text !== picked ? [[picked, text] as const] : [];
    });
    if (entries.length > 0) kept[member] = Object.fromEntries(entries);
  }
  return kept;
}

/** A saved width outside these bounds (px) is not one the grid could have produced. */
export const MIN_COLUMN_WIDTH = 20;
export const MAX_COLUMN_WIDTH = 4000;

/** Longer than any code and description the lookups send; a longer saved text is not ours. */
const MAX_TEXT = 500;

const Saved = z.object({
  // The request's own rule: a saved key the server would refuse is not kept.
  searchKey: SearchKey.catch(''),
  sort: z
    .object({ field: z.string(), direction: z.enum(['asc', 'desc']) })
    .optional()
    .catch(undefined),
  columns: z.array(z.string()).min(1).optional().catch(undefined),
  columnOrder: z.array(z.string()).min(1).optional().catch(undefined),
  columnWidths: z.record(z.string(), z.number().int().min(MIN_COLUMN_WIDTH).max(MAX_COLUMN_WIDTH)).catch({}),
  pickedTexts: z.record(z.string(), z.record(z.string(), z.string().max(MAX_TEXT))).catch({}),
});

/**
 * `filters` validates what was saved: a part that no longer reads (an older version, a hand-edited
 * profile) falls back to its default instead of sending the server a request it refuses forever.
 */
export function createWorkspaceStore<F extends FilterFields>(
  name: string,
  filters: z.ZodType<F>,
): WorkspaceStore<F> {
  const store = create<WorkspaceState<F>>()(
    persist(
      (set) => ({
        filterFields: {} as F,
        pickedTexts: {},
        searchKey: '',
        sort: undefined,
        columns: undefined,
        columnOrder: undefined,
        columnWidths: {},
        setMember: (member, value, texts) =>
          set((state) => {
            const filterFields = merged(state.filterFields, { [member]: value } as Partial<F>);
            const added = texts ? { [member]: { ...texts } } : {};
            return { filterFields, pickedTexts: keptTexts(filterFields, state.pickedTexts, added) };
          }),
        setMembers: (values) =>
          set((state) => {
            const filterFields = merged(state.filterFields, values);
            return { filterFields, pickedTexts: keptTexts(filterFields, state.pickedTexts) };
          }),
        setSearchKey: (searchKey) => set({ searchKey }),
        setSort: (sort) => set({ sort }),
        setColumns: (columns) => set({ columns }),
        setColumnOrder: (columnOrder) => set({ columnOrder }),
        setColumnWidths: (widths) =>
          set((state) => {
            const columnWidths = { ...state.columnWidths };
            for (const [field, width] of Object.entries(widths))
              columnWidths[field] = Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, Math.round(width)));
            return { columnWidths };
          }),
        resetColumns: () => set({ columns: undefined, columnOrder: undefined, columnWidths: {} }),
        clearAll: () => set({ filterFields: {} as F, pickedTexts: {}, searchKey: '' }),
      }),
      {
        name: `waste-tracker.workspace.${name}`,
        version: 1,
        storage: createJSONStorage(userStorage(() => localStorage)),
        partialize: ({ filterFields, pickedTexts, searchKey, sort, columns, columnOrder, columnWidths }) => ({
          filterFields,
          pickedTexts,
          searchKey,
          sort,
          columns,
          columnOrder,
          columnWidths,
        }),
        merge: (persisted, current) => {
          const saved = Saved.safeParse(persisted);
          const fields = filters.safeParse(
            (persisted as { filterFields?: unknown } | undefined)?.filterFields,
          );
          const filterFields = fields.success ? fields.data : current.filterFields;
          return {
            ...current,
            ...(saved.success ? saved.data : {}),
            filterFields,
            pickedTexts: keptTexts(filterFields, saved.success ? saved.data.pickedTexts : {}),
          };
        },
      },
    ),
  );
  return perUser(store);
}
