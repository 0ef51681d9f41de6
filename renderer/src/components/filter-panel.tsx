import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { LIMITS } from '../../../shared/api/index.ts';
import { formatPicked } from '../base/format.ts';
import type { FilterFields, WorkspaceStore } from '../state/workspace-store.ts';
import { FilterChips, type Chip } from './filter-chips.tsx';
import { fieldRefused, isExtensionField, refusesField, useFieldRefused } from '../data/lookup-extensions.ts';
import { LookupMultiSelect, type LookupAnswer, type LookupFetch } from './lookup-multi-select.tsx';
import { SearchCheck, searchProblem } from './search-check.tsx';

/** A filterFields member picked from a lookup: its label and the lookup field that lists its values. */
export type LookupMember = {
  member: string;
  field: string;
  label: string;
  /**
   * The lookup lists values of several fields, each under its heading (statuses: registration or federal
   * generator status); a picked value's chip is labelled with its heading.
   */
  grouped?: boolean;
  /** For a lookup a server may lack (lookup-extensions.ts): what the box says then, and where else to look. */
  fallback?: { note: string; derive?: LookupFetch };
};
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
  lookup: (field: string, search: string, page: number, signal: AbortSignal) => Promise<LookupAnswer>;
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
  const problemId = useId();
  // A search the server would refuse is not sent; the field says why instead.
  const sendable = searchProblem(text) === undefined;
  // The stored search changed elsewhere (a chip removed, "clear all"): the box follows it.
  if (stored !== value) {
    setStored(value);
    setText(value);
  }
  useEffect(() => {
    if (text === value || !sendable) return;
    const timer = setTimeout(() => onChange(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onChange, sendable]);
  return (
    <div className="filter-search">
      <label>
        {label}
        <input
          type="search"
          value={text}
          maxLength={LIMITS.searchKeyMax}
          aria-invalid={sendable ? undefined : true}
          aria-describedby={sendable ? undefined : problemId}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && sendable) onChange(text);
          }}
        />
      </label>
      <SearchCheck id={problemId} text={text} onFix={setText} />
    </div>
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
  const refused = useFieldRefused(entry.field);
  const { field, fallback, grouped } = entry;
  const fetchPage = useCallback<LookupFetch>(
    async (search, page, signal) => {
      if (refused && fallback?.derive) return fallback.derive(search, page, signal);
      const answer = await lookup(field, search, page, signal);
      // A server without this lookup refuses the field: the box turns to its fallback from now on.
      if (!answer.ok && fallback && isExtensionField(field) && refusesField(answer.error)) {
        fieldRefused(field);
        if (fallback.derive) return fallback.derive(search, page, signal);
      }
      return answer;
    },
    [lookup, field, refused, fallback],
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
          {refused && fallback && (
            <p className="lookup-note" role="note">
              {fallback.note}
            </p>
          )}
          {(!refused || fallback?.derive) && (
            <LookupMultiSelect
              label={entry.label}
              selected={selected}
              onChange={(values, option) =>
                setMember(entry.member, values as unknown as F[keyof F], {
                  // A grouped value's chip names its heading; another's says what its code means.
                  [option.value]: grouped ? (option.group ?? option.text) : option.text,
                })
              }
              fetchPage={fetchPage}
            />
          )}
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
    ...members.flatMap(({ member, label: name, grouped }) => {
      return valuesOf(filterFields[member]).map((value) => {
        const picked = pickedTexts[member]?.[value];
        return grouped
          ? { member, label: picked ?? name, value, text: value }
          : { member, label: name, value, text: formatPicked(value, picked) };
      });
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
