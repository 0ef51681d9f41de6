import { useEffect, useId, useRef, useState } from 'react';
import type { LookupResult } from '../../../shared/api/index.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
import { whileWanted } from '../data/while-wanted.ts';

export type LookupFetch = (search: string, page: number) => Promise<Result<LookupResult>>;
type Option = LookupResult['results'][number];

type Props = {
  label: string;
  selected: readonly string[];
  onChange: (values: string[]) => void;
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
  // Answers to an older search must not overwrite the list of a newer one.
  const generation = useRef(0);

  useEffect(() => {
    const mine = ++generation.current;
    const timer = setTimeout(() => {
      setLoading(true);
      void whileWanted(
        () => fetchPage(search, 1),
        () => mine === generation.current,
      ).then((answer) => {
        if (answer === null) return;
        setLoading(false);
        if (answer.ok) {
          setOptions(answer.data.results);
          setMore(answer.data.pagination.more);
          setPage(1);
          setError(null);
        } else {
          setError(answer.error.message);
        }
      });
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [search, fetchPage, debounceMs]);

  const loadMore = () => {
    const mine = generation.current;
    const next = page + 1;
    setLoading(true);
    void whileWanted(
      () => fetchPage(search, next),
      () => mine === generation.current,
    ).then((answer) => {
      if (answer === null) return;
      setLoading(false);
      if (answer.ok) {
        setOptions((previous) => [...previous, ...answer.data.results]);
        setMore(answer.data.pagination.more);
        setPage(next);
      } else {
        setError(answer.error.message);
      }
    });
  };

  const toggle = (value: string) =>
    onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value]);

  return (
    <fieldset className="lookup-select">
      <legend className="visually-hidden">{label}</legend>
      <input
        id={`${id}-search`}
        type="search"
        aria-label={`Search ${label}`}
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
                onChange={() => toggle(option.value)}
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
