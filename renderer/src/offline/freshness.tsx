/**
 * A view's freshness label: "Up to date" for an answer the server just gave, "Saved 5 minutes ago" for one
 * from this machine's saved data (the page cache or an offline pack), so a view never passes saved data
 * off as current.
 */
import type { Provenance } from '../data/pipeline.ts';
import { formatTimestamp } from '../format.ts';
import { useNow } from './offline-banner.tsx';
import { relativeTime } from './relative-time.ts';

export function Freshness({ provenance, what }: { provenance: Provenance | null; what: string }) {
  const now = useNow();
  if (!provenance) return null;
  const saved = provenance.source === 'cache';
  return (
    <span
      className={saved ? 'freshness saved' : 'freshness'}
      role="note"
      aria-label={`Freshness of the ${what}`}
      title={formatTimestamp(provenance.fetchedAt)}
    >
      {saved ? `Saved ${relativeTime(provenance.fetchedAt, now)}` : 'Up to date'}
    </span>
  );
}

/** The provenance of an answer, when it has one (answers of the data pipeline do). */
export function provenanceOf(answer: object): Provenance | null {
  const { source, fetchedAt } = answer as Partial<Provenance>;
  return source && typeof fetchedAt === 'number' ? { source, fetchedAt } : null;
}
