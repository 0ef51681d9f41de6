/**
 * What the user has set up in one workspace: filters, search, sort and the columns shown. Persisted, so it
 * survives switching workspaces and restarting the app. UI state only; the data lives in the data layer.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { persist } from 'zustand/middleware';
import { z } from 'zod';

/** A filterFields object: lists of values, plus (for manifests) single date bounds. */
export type FilterFields = Record<string, readonly string[] | string | undefined>;

export type SortState = { field: string; direction: 'asc' | 'desc' };

export type WorkspaceState<F extends FilterFields> = {
  filterFields: F;
  searchKey: string;
  /** undefined: the server's default order. */
  sort: SortState | undefined;
  /** Fields shown in the grid, in order; undefined: the workspace's default columns. */
  columns: string[] | undefined;
  setMember: (member: keyof F & string, value: F[keyof F] | undefined) => void;
  /** Several members at once, so a request never sees half of a change (both ends of a date range). */
  setMembers: (values: Partial<F>) => void;
  setSearchKey: (searchKey: string) => void;
  setSort: (sort: SortState | undefined) => void;
  setColumns: (columns: string[] | undefined) => void;
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

const Saved = z.object({
  searchKey: z.string().max(200).catch(''),
  sort: z
    .object({ field: z.string(), direction: z.enum(['asc', 'desc']) })
    .optional()
    .catch(undefined),
  columns: z.array(z.string()).min(1).optional().catch(undefined),
});

/**
 * `filters` validates what was saved: a part that no longer reads (an older version, a hand-edited
 * profile) falls back to its default instead of sending the server a request it refuses forever.
 */
export function createWorkspaceStore<F extends FilterFields>(
  name: string,
  filters: z.ZodType<F>,
): WorkspaceStore<F> {
  return create<WorkspaceState<F>>()(
    persist(
      (set) => ({
        filterFields: {} as F,
        searchKey: '',
        sort: undefined,
        columns: undefined,
        setMember: (member, value) =>
          set((state) => ({ filterFields: merged(state.filterFields, { [member]: value } as Partial<F>) })),
        setMembers: (values) => set((state) => ({ filterFields: merged(state.filterFields, values) })),
        setSearchKey: (searchKey) => set({ searchKey }),
        setSort: (sort) => set({ sort }),
        setColumns: (columns) => set({ columns }),
        clearAll: () => set({ filterFields: {} as F, searchKey: '' }),
      }),
      {
        name: `waste-tracker.workspace.${name}`,
        version: 1,
        partialize: ({ filterFields, searchKey, sort, columns }) => ({
          filterFields,
          searchKey,
          sort,
          columns,
        }),
        merge: (persisted, current) => {
          const saved = Saved.safeParse(persisted);
          const fields = filters.safeParse(
            (persisted as { filterFields?: unknown } | undefined)?.filterFields,
          );
          return {
            ...current,
            ...(saved.success ? saved.data : {}),
            ...(fields.success ? { filterFields: fields.data } : {}),
          };
        },
      },
    ),
  );
}
