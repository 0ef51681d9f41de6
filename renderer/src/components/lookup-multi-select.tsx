import { useEffect, useId, useRef, useState } from 'react';
import { LIMITS, type LookupResult } from '../../../shared/api/index.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
import { ignoreAbort } from '../data/tracker-data.ts';

/** Asks for one page of options; the signal aborts when the search it belongs to is no longer wanted. */
export type LookupFetch = (
  search: string,
  page: number,
  signal: AbortSignal,
) => Promise<Result<LookupResult>>;
type Option = LookupResult['results'][number];

type Props = {
  label: string;
  selected: readonly string[];
  /** The values now picked, and the option just picked or unpicked (its text says what a code means). */
  onChange: (values: string[], option: Option) => void;
  fetchPage: LookupFetch;
  /** Typing waits this long before asking the server, so each keystroke is not a request. */
  debounceMs?: number;
};

/** A lookup-fed multi-select: type to search, scroll (or "Load more") for the next 1-based page. */
export function LookupMultiSelect({ label, selected, onChange, fetchPage, debounceMs = 250 }: Props) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [options, setOptions] = useState<Option[]>([]);
  const [page, setPage] = useState(1);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  // The current search's requests: a newer search, or leaving, aborts them, so an older search's answer
  // never overwrites the list of a newer one.
  const wanted = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    wanted.current = controller;
    const timer = setTimeout(() => {
      setLoading(true);
      fetchPage(search, 1, controller.signal).then((answer) => {
        setLoading(false);
        if (answer.ok) {
          setOptions(answer.data.results);
          setMore(answer.data.pagination.more);
          setPage(1);
          setError(null);
        } else {
          setError(answer.error.message);
        }
      }, ignoreAbort);
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [search, fetchPage, debounceMs]);

  const loadMore = () => {
    const controller = wanted.current;
    if (!controller) return;
    const next = page + 1;
    setLoading(true);
    fetchPage(search, next, controller.signal).then((answer) => {
      setLoading(false);
      if (answer.ok) {
        setOptions((previous) => [...previous, ...answer.data.results]);
        setMore(answer.data.pagination.more);
        setPage(next);
      } else {
        setError(answer.error.message);
      }
    }, ignoreAbort);
  };

  const toggle = (option: Option) => {
    const { value } = option;
    onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value], option);
  };

  return (
    <fieldset className="lookup-select">
      <legend className="visually-hidden">{label}</legend>
      <input
        id={`${id}-search`}
        type="search"
        aria-label={`Search ${label}`}
        maxLength={LIMITS.lookupSearchMax}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <ul
        aria-label={`${label} options`}
        onScroll={(event) => {
          const list = event.currentTarget;
          if (more && !loading && list.scrollTop + list.clientHeight >= list.scrollHeight - 8) loadMore();
        }}
      >
        {options.map((option) => (
          <li key={option.value}>
            <label>
              <input
                type="checkbox"
                checked={selected.includes(option.value)}
                onChange={() => toggle(option)}
              />
              {option.text}
            </label>
          </li>
        ))}
      </ul>
      {error && <p role="alert">{error}</p>}
      {more && (
        <button type="button" onClick={loadMore} disabled={loading}>
          Load more {label}
        </button>
      )}
    </fieldset>
  );
}
