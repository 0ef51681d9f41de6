import { useEffect, useId, useRef, useState } from 'react';
import { LIMITS, type LookupResult } from '../../../shared/api/index.ts';
import type { IpcError, Result } from '../../../shared/ipc/contract.ts';
import { ignoreAbort } from '../data/tracker-data.ts';
import { useAskAgainWhenOnline } from '../data/connectivity.ts';
import { ErrorBanner } from './error-banner.tsx';
import { SearchCheck, searchProblem } from './search-check.tsx';

/**
 * One page of options, and, when it came from saved data that holds only part of the list (an offline pack
 * of some rows), the slice it holds.
 */
export type LookupAnswer = Result<LookupResult> & { within?: string | undefined };

/** Asks for one page of options; the signal aborts when the search it belongs to is no longer wanted. */
export type LookupFetch = (search: string, page: number, signal: AbortSignal) => Promise<LookupAnswer>;
export type LookupOption = LookupResult['results'][number];

type Props = {
  label: string;
  selected: readonly string[];
  /** The values now picked, and the option just picked or unpicked (its text says what a code means). */
  onChange: (values: string[], option: LookupOption) => void;
  fetchPage: LookupFetch;
  /** Typing waits this long before asking the server, so each keystroke is not a request. */
  debounceMs?: number;
};

/** Consecutive options of one group (a lookup that says which field each value is of), in list order. */
function grouped(options: readonly LookupOption[]): { group: string | undefined; options: LookupOption[] }[] {
  const runs: { group: string | undefined; options: LookupOption[] }[] = [];
  for (const option of options) {
    const run = runs.find((entry) => entry.group === option.group);
    if (run) run.options.push(option);
    else runs.push({ group: option.group, options: [option] });
  }
  return runs;
}

/**
 * A lookup-fed multi-select: type to search, scroll (or "Load more") for the next 1-based page. Values the
 * lookup says are of different fields are listed under a heading each.
 */
export function LookupMultiSelect({ label, selected, onChange, fetchPage, debounceMs = 250 }: Props) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [options, setOptions] = useState<LookupOption[]>([]);
  const [page, setPage] = useState(1);
  const [more, setMore] = useState(false);
  /** What failed: the search's first page, or a further one ("Load more"). */
  const [error, setError] = useState<{ error: IpcError; more: boolean } | null>(null);
  const [loading, setLoading] = useState(false);
  /** The offline pack whose values the list holds, when it holds only those. */
  const [within, setWithin] = useState<string | null>(null);
  /** Bumped to ask again: Retry, or back online after a failure or a pack's values. */
  const [attempt, setAttempt] = useState(0);
  useAskAgainWhenOnline(error !== null || within !== null, () => setAttempt((n) => n + 1));
  // The current search's requests: a newer search, or leaving, aborts them, so an older search's answer
  // never overwrites the list of a newer one.
  const wanted = useRef<AbortController | null>(null);
  const sendable = searchProblem(search) === undefined;

  useEffect(() => {
    if (!sendable) return undefined;
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
          setWithin(answer.within ?? null);
        } else {
          setError({ error: answer.error, more: false });
        }
      }, ignoreAbort);
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [search, fetchPage, debounceMs, sendable, attempt]);

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
        setError(null);
      } else {
        setError({ error: answer.error, more: true });
      }
    }, ignoreAbort);
  };

  const toggle = (option: LookupOption) => {
    const { value } = option;
    onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value], option);
  };

  const item = (option: LookupOption) => (
    <li key={option.value}>
      <label>
        <input type="checkbox" checked={selected.includes(option.value)} onChange={() => toggle(option)} />
        {option.text}
      </label>
    </li>
  );
  const runs = grouped(options);

  return (
    <fieldset className="lookup-select">
      <legend className="visually-hidden">{label}</legend>
      <input
        id={`${id}-search`}
        type="search"
        aria-label={`Search ${label}`}
        maxLength={LIMITS.lookupSearchMax}
        aria-invalid={sendable ? undefined : true}
        aria-describedby={sendable ? undefined : `${id}-problem`}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <SearchCheck id={`${id}-problem`} text={search} onFix={setSearch} />
      <ul
        aria-label={`${label} options`}
        onScroll={(event) => {
          const list = event.currentTarget;
          if (more && !loading && list.scrollTop + list.clientHeight >= list.scrollHeight - 8) loadMore();
        }}
      >
        {runs.length === 1 && runs[0]?.group === undefined
          ? options.map(item)
          : runs.map((run) => (
              <li key={run.group ?? ''} className="lookup-group">
                <span className="lookup-group-name" aria-hidden="true">
                  {run.group ?? label}
                </span>
                <ul aria-label={run.group ?? label}>{run.options.map(item)}</ul>
              </li>
            ))}
      </ul>
      {within && (
        <p className="lookup-within" role="note">
          Values in this offline pack only: “{within}”.
        </p>
      )}
      {error && (
        <ErrorBanner
          error={error.error}
          what={`the ${label} values`}
          onRetry={() => (error.more ? loadMore() : setAttempt((n) => n + 1))}
        />
      )}
      {more && (
        <button type="button" onClick={loadMore} disabled={loading}>
          Load more {label}
        </button>
      )}
    </fieldset>
  );
}
