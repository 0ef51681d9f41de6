import { useEffect, useState } from 'react';
import type { Scope } from '../../../shared/api/index.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import type { Provenance } from '../data/pipeline.ts';
import { ignoreAbort, type Answer, type Update } from '../data/tracker-data.ts';
import { useAskAgainWhenOnline } from '../data/connectivity.ts';
import { Freshness } from '../offline/freshness.tsx';
import { Problem } from './problems.tsx';

export type Box<Totals> = { label: string; value: (totals: Totals) => string };

type Props<Totals> = {
  /** Identifies the request: a new key means new figures are on their way. */
  queryKey: string;
  /**
   * Asks for the totals; the signal aborts when this key's figures are no longer wanted. After saved
   * figures, `onUpdate` brings the server's.
   */
  load: (signal: AbortSignal, onUpdate: Update<Totals>) => Promise<Answer<Totals>>;
  boxes: readonly Box<Totals>[];
  scope: Scope;
  /**
   * Changes when the data behind the same request changed (a pack's refresh brought rows): the figures are
   * read again, as the grid reads its rows again.
   */
  dataVersion?: unknown;
};

/** The summary boxes, always for the current filters and search; stale figures are never shown as current. */
export function SummaryBoxes<Totals>({ queryKey, load, boxes, scope, dataVersion }: Props<Totals>) {
  const [answered, setAnswered] = useState<{ key: string; totals: Totals; provenance: Provenance } | null>(
    null,
  );
  const [failed, setFailed] = useState<{ key: string; error: IpcError } | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const wanted = new AbortController();
    const show = (answer: Answer<Totals>) => {
      if (answer.ok) {
        const { source, fetchedAt } = answer;
        setAnswered({ key: queryKey, totals: answer.data, provenance: { source, fetchedAt } });
        setFailed(null);
      } else setFailed({ key: queryKey, error: answer.error });
    };
    load(wanted.signal, show).then(show, ignoreAbort);
    return () => wanted.abort();
    // load is derived from queryKey by the caller; the key, new data and a retry decide when to ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryKey, dataVersion, attempt]);

  useAskAgainWhenOnline(
    failed?.key === queryKey || (answered?.key === queryKey && answered.provenance.source === 'cache'),
    () => setAttempt((n) => n + 1),
    answered?.key === queryKey ? answered.provenance.fetchedAt : undefined,
  );

  const failure = failed?.key === queryKey ? failed.error : null;
  const totals = answered?.key === queryKey ? answered.totals : null;
  // A failed figure is not on its way: a dash, not the loading shimmer, beside the reason.
  const value = (box: Box<Totals>) => (totals ? box.value(totals) : failure ? '—' : '\u00a0');
  return (
    <>
      {failure && (
        <Problem
          error={failure}
          what="the summary figures"
          scope={scope}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      )}
      <section className="summary-boxes" aria-label="Summary" aria-busy={totals === null && !failure}>
        {boxes.map((box) => (
          <div key={box.label} className="summary-box" role="group" aria-label={box.label}>
            <div className="summary-label">{box.label}</div>
            <div className={totals || failure ? 'summary-value' : 'summary-value skeleton'}>{value(box)}</div>
          </div>
        ))}
      </section>
      {totals && answered && <Freshness provenance={answered.provenance} what="summary" />}
    </>
  );
}
