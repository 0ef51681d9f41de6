import { useEffect, useState } from 'react';
import type { GeneratorTotals } from '../../../shared/api/index.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import { generatorTotals, type GeneratorQuery } from '../data/tracker-data.ts';
import { formatCount, formatTons } from '../format.ts';

/** The four summary boxes, always for the current filters and search. */
export function GeneratorBoxes({ query }: { query: GeneratorQuery }) {
  // Totals are kept with the query they answer, so a changed query shows "loading" without resetting state.
  const [answered, setAnswered] = useState<{ key: string; totals: GeneratorTotals } | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const key = JSON.stringify(query);

  useEffect(() => {
    let current = true;
    void generatorTotals(JSON.parse(key) as GeneratorQuery).then((answer) => {
      if (!current) return;
      if (answer.ok) {
        setAnswered({ key, totals: answer.data });
        setError(null);
      } else setError(answer.error);
    });
    return () => {
      current = false;
    };
  }, [key, attempt]);

  const totals = answered?.key === key ? answered.totals : null;
  if (error)
    return (
      <div role="alert" className="error-banner">
        {error.message}{' '}
        <button type="button" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </button>
      </div>
    );
  const boxes = [
    { label: 'Manifests shipped', value: formatCount(totals?.shipped_count) },
    { label: 'Total tons', value: formatTons(totals?.epa_total) },
    { label: 'Total containers', value: formatCount(totals?.container_count) },
    { label: 'Total shippers', value: formatCount(totals?.mmc_count) },
  ];
  return (
    <section className="summary-boxes" aria-label="Summary" aria-busy={totals === null}>
      {boxes.map((box) => (
        <div key={box.label} className="summary-box" role="group" aria-label={box.label}>
          <div className="summary-label">{box.label}</div>
          <div className="summary-value">{totals ? box.value : '…'}</div>
        </div>
      ))}
    </section>
  );
}
