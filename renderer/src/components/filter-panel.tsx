import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { LIMITS, type LookupResult } from '../../../shared/api/index.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
import { formatPicked } from '../format.ts';
import type { FilterFields, WorkspaceStore } from '../state/workspace-store.ts';
import { FilterChips, type Chip } from './filter-chips.tsx';
import { LookupMultiSelect } from './lookup-multi-select.tsx';

/** A filterFields member picked from a lookup: its label and the lookup field that lists its values. */
export type LookupMember = { member: string; field: string; label: string };
/** A member holding one value (a date bound), shown as a chip when set. */
export type ScalarMember = { member: string; label: string };

type Props<F extends FilterFields> = {
  /** Accessible name of the panel: "Generator filters". */
  label: string;
  /** Accessible name of the free-text search: "Search generators". */
  searchLabel: string;
  store: WorkspaceStore<F>;
  members: readonly LookupMember[];
  scalars?: readonly ScalarMember[];
  lookup: (field: string, search: string, page: number, signal: AbortSignal) => Promise<Result<LookupResult>>;
  /** Further controls (date ranges) under the lookups. */
  children?: ReactNode;
};

function valuesOf(value: readonly string[] | string | undefined): readonly string[] {
  return typeof value === 'string' || value === undefined ? [] : value;
}

/** Waits this long after the last keystroke before the search reaches the grid and the boxes. */
const SEARCH_DEBOUNCE_MS = 300;

function SearchBox({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const [text, setText] = useState(value);
  const [stored, setStored] = useState(value);
  // The stored search changed elsewhere (a chip removed, "clear all"): the box follows it.
  if (stored !== value) {
    setStored(value);
    setText(value);
  }
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChange(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <label className="filter-search">
      {label}
      <input
        type="search"
        value={text}
        maxLength={LIMITS.searchKeyMax}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onChange(text);
        }}
      />
    </label>
  );
}

function MemberSelect<F extends FilterFields>({
  store,
  entry,
  lookup,
}: {
  store: WorkspaceStore<F>;
  entry: LookupMember;
  lookup: Props<F>['lookup'];
}) {
  const selected = valuesOf(store((state) => state.filterFields[entry.member]));
  const setMember = store((state) => state.setMember);
  const [open, setOpen] = useState(false);
  const id = useId();
  const fetchPage = useCallback(
    (search: string, page: number, signal: AbortSignal) => lookup(entry.field, search, page, signal),
    [lookup, entry.field],
  );
  return (
    <div className="filter-member">
      <button
        type="button"
        className="filter-member-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <span>{entry.label}</span>
        {selected.length > 0 && <span className="badge">{selected.length} selected</span>}
      </button>
      {open && (
        <div id={id}>
          <LookupMultiSelect
            label={entry.label}
            selected={selected}
            onChange={(values, option) =>
              setMember(entry.member, values as unknown as F[keyof F], { [option.value]: option.text })
            }
            fetchPage={fetchPage}
          />
        </div>
      )}
    </div>
  );
}

/** A workspace's filters: free-text search, active filters as chips, one lookup-fed box per member. */
export function FilterPanel<F extends FilterFields>(props: Props<F>) {
  const { label, searchLabel, store, members, scalars = [], lookup, children } = props;
  const filterFields = store((state) => state.filterFields);
  const pickedTexts = store((state) => state.pickedTexts);
  const searchKey = store((state) => state.searchKey);
  const setSearchKey = store((state) => state.setSearchKey);
  const setMember = store((state) => state.setMember);
  const clearAll = store((state) => state.clearAll);

  const chips: Chip[] = [
    ...members.flatMap(({ member, label: name }) => {
      return valuesOf(filterFields[member]).map((value) => ({
        member,
        label: name,
        value,
        text: formatPicked(value, pickedTexts[member]?.[value]),
      }));
    }),
    ...scalars.flatMap(({ member, label: name }) => {
      const value = filterFields[member];
      return typeof value === 'string' ? [{ member, label: name, value, text: value }] : [];
    }),
    ...(searchKey ? [{ member: 'searchKey', label: 'Search', value: searchKey, text: searchKey }] : []),
  ];
  const remove = (chip: Chip) => {
    if (chip.member === 'searchKey') return setSearchKey('');
    const rest = valuesOf(filterFields[chip.member]).filter((value) => value !== chip.value);
    setMember(chip.member, (rest.length > 0 ? rest : undefined) as F[keyof F]);
  };

  return (
    <aside className="filter-panel" aria-label={label}>
      <SearchBox label={searchLabel} value={searchKey} onChange={setSearchKey} />
      <FilterChips chips={chips} onRemove={remove} onClearAll={clearAll} />
      {members.map((entry) => (
        <MemberSelect key={entry.member} store={store} entry={entry} lookup={lookup} />
      ))}
      {children}
    </aside>
  );
}
