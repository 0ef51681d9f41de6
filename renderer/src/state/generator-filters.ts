import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { GeneratorFilterFields } from '../../../shared/api/index.ts';

type Member = keyof GeneratorFilterFields;

type GeneratorFiltersState = {
  filterFields: GeneratorFilterFields;
  searchKey: string;
  sort: string | undefined;
  setMember: (member: Member, values: string[]) => void;
  setSearchKey: (searchKey: string) => void;
  setSort: (sort: string | undefined) => void;
  clearAll: () => void;
};

/** UI state only (filters, search, sort); persisted so it survives workspace switches and restarts. */
export const useGeneratorFilters = create<GeneratorFiltersState>()(
  persist(
    (set) => ({
      filterFields: {},
      searchKey: '',
      sort: undefined,
      setMember: (member, values) =>
        set((state) => {
          const next = { ...state.filterFields };
          if (values.length === 0) delete next[member];
          else next[member] = values;
          return { filterFields: next };
        }),
      setSearchKey: (searchKey) => set({ searchKey }),
      setSort: (sort) => set({ sort }),
      clearAll: () => set({ filterFields: {}, searchKey: '' }),
    }),
    { name: 'waste-tracker.generator-filters' },
  ),
);
