/**
 * One banner per cause in a view. The parts of a workspace (its boxes, its grid) ask the server separately,
 * so one cause (a search the server refuses, a server that does not answer) fails them all at once; each
 * reports its failure to the view's ProblemArea, which shows the cause once, naming every part it stopped,
 * with one Retry for them all. A part outside any area shows its own banner.
 */
import {
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { Scope } from '../../../shared/api/index.ts';
import { outOfReach, type IpcError } from '../../../shared/ipc/contract.ts';
import { ErrorBanner, type FailureProps } from './error-banner.tsx';

type Reported = { error: IpcError; what: string; scope: Scope | undefined; retry: (() => void) | undefined };

type Area = (id: string, reported: Reported | undefined) => void;

const AreaContext = createContext<Area | null>(null);

/** "a", "a and b", "a, b and c". */
export function listed(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

type Cause = {
  key: string;
  error: IpcError;
  scope: Scope | undefined;
  whats: string[];
  retries: (() => void)[];
};

/**
 * Reports with the same kind and words are one cause, in the order they were first reported; so are
 * reports of a server out of reach, their words (what saved data each part lacks) put together.
 */
function causesOf(reports: ReadonlyMap<string, Reported>): Cause[] {
  const causes = new Map<string, Cause>();
  for (const { error, what, scope, retry } of reports.values()) {
    // The server out of reach is one cause, whatever each part says its saved data lacks, and whether the
    // part found it out itself (a timeout) or was answered from saved data after another part did (offline).
    const key = outOfReach(error) ? 'unreachable' : `${error.kind}\n${error.message}`;
    const cause = causes.get(key) ?? { key, error, scope, whats: [], retries: [] };
    if (!cause.error.message.includes(error.message))
      cause.error = { ...cause.error, message: `${cause.error.message} ${error.message}` };
    if (!cause.whats.includes(what)) cause.whats.push(what);
    if (retry) cause.retries.push(retry);
    causes.set(key, cause);
  }
  return [...causes.values()];
}

/** A section of a view whose parts' failures show above them, each cause once. */
export function ProblemArea({
  className,
  label,
  children,
}: {
  className: string;
  /** The section's accessible name. */
  label: string;
  children: ReactNode;
}) {
  const [reports, setReports] = useState<ReadonlyMap<string, Reported>>(() => new Map());
  const report = useMemo<Area>(
    () => (id, reported) =>
      setReports((current) => {
        if (!reported && !current.has(id)) return current;
        const next = new Map(current);
        if (reported) next.set(id, reported);
        else next.delete(id);
        return next;
      }),
    [],
  );
  return (
    <AreaContext.Provider value={report}>
      <section className={className} aria-label={label}>
        {causesOf(reports).map((cause) => (
          <ErrorBanner
            key={cause.key}
            error={cause.error}
            what={listed(cause.whats)}
            scope={cause.scope}
            onRetry={cause.retries.length > 0 ? () => cause.retries.forEach((retry) => retry()) : undefined}
          />
        ))}
        {children}
      </section>
    </AreaContext.Provider>
  );
}

/** A part's failure: reported to the area it is in, or shown here when it is in none. */
export function Problem({ error, what, scope, onRetry }: FailureProps) {
  const report = useContext(AreaContext);
  const id = useId();
  // The area calls the newest retry, however often the part re-renders.
  const retry = useRef(onRetry);
  useLayoutEffect(() => {
    retry.current = onRetry;
  });
  const retries = onRetry !== undefined;
  useEffect(() => {
    if (!report) return undefined;
    report(id, { error, what, scope, retry: retries ? () => retry.current?.() : undefined });
    return () => report(id, undefined);
  }, [report, id, error, what, scope, retries]);
  if (report) return null;
  return <ErrorBanner error={error} what={what} scope={scope} onRetry={onRetry} />;
}
