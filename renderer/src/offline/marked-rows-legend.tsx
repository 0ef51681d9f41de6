/**
 * The grid's legend for the rows an offline pack's refresh brought (row-marks.ts), and on demand their list,
 * read from the packs: a weekly refresh's changed manifests are often last year's, thousands of rows down
 * the grid's order, where the marks alone leave the inspector scrolling to find them. It lists the rows the
 * grid marks, those it has already shown included (they stay marked while the workspace is on screen). Each
 * listed key shows its row in the grid (the workspace's search set to it); the list stays open for the next.
 */
import { useEffect, useState } from 'react';
import { formatCount } from '../base/format.ts';
import type { PackList } from './engine-seam.ts';
import { activeDatabase } from './offline-store.ts';
import { markedRowList, type MarkedRow, type RowMark } from './pack-changes.ts';

/** Rows the list shows at most: enough to work through, few enough to read from a large pack at once. */
const LISTED = 200;

const text = (row: unknown, field: string): string => {
  const value = (row as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : '';
};

/** What the list says of a row beside its key. */
const SUMMARY: Record<PackList, (row: unknown) => string> = {
  manifests: (row) => {
    const shipped = text(row, 'shipped_date');
    return [text(row, 'generator_name'), shipped && `shipped ${shipped}`].filter(Boolean).join(' · ');
  },
  generators: (row) => {
    const place = [text(row, 'location_city'), text(row, 'location_state')].filter(Boolean).join(', ');
    return [text(row, 'generator_name'), place].filter(Boolean).join(' · ');
  },
};

type Listed = { rows: MarkedRow[]; total: number } | 'reading' | { failed: string };

export function MarkedRowsLegend({
  list,
  noun,
  marks,
  onShow,
}: {
  list: PackList;
  /** "manifests" */
  noun: string;
  /** The rows the grid marks (row-marks.ts): those it has shown stay listed while it is on screen. */
  marks: ReadonlyMap<string, RowMark>;
  /** Shows this key's row in the grid. */
  onShow: (key: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [listed, setListed] = useState<Listed>('reading');
  useEffect(() => {
    const db = activeDatabase();
    if (!open || !db) return undefined;
    let current = true;
    markedRowList(db, list, marks, LISTED).then(
      (found) => current && setListed(found),
      (error: unknown) =>
        current && setListed({ failed: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [open, list, marks]);
  const toggle = () => {
    if (!open) setListed('reading');
    setOpen(!open);
  };
  return (
    <>
      <p className="row-marks-legend" role="note" aria-label="Marked rows">
        <span className="row-mark-new">New</span> and <span className="row-mark-changed">changed</span> {noun}{' '}
        since an offline pack’s last sync are marked until you have seen them.{' '}
        <button type="button" className="link-button" aria-expanded={open} onClick={toggle}>
          {open ? 'Hide the list' : 'List them'}
        </button>
      </p>
      {open && (
        <section className="marked-rows" aria-label={`Marked ${noun}`}>
          {listed === 'reading' ? (
            <p role="status">Reading the offline packs…</p>
          ) : 'failed' in listed ? (
            <p role="alert">
              The marked {noun} could not be read from this computer’s offline data: {listed.failed}
            </p>
          ) : (
            <>
              <ol>
                {listed.rows.map(({ key, mark, row }) => (
                  <li key={key}>
                    <span className={`row-mark-${mark}`}>{mark === 'new' ? 'New' : 'Changed'}</span>{' '}
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Show ${key} in the grid`}
                      onClick={() => onShow(key)}
                    >
                      {key}
                    </button>{' '}
                    {SUMMARY[list](row)}
                  </li>
                ))}
              </ol>
              {listed.total > listed.rows.length && (
                <p>
                  The first {formatCount(listed.rows.length)} of {formatCount(listed.total)} marked {noun}, in
                  the order of the packs that hold them.
                </p>
              )}
            </>
          )}
        </section>
      )}
    </>
  );
}
