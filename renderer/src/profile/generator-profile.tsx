/**
 * The generator profile, from the detail endpoint: every field of spec 2.3 under a label, in its format
 * (tons with two decimals, counts grouped, flags as Yes/No). gen_map is untrusted HTML from the server
 * and is never rendered: only an https: address found in it is offered, opened by main in the browser.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { GeneratorDetail } from '../../../shared/api/index.ts';
import { isNumeric, type ColumnKind } from '../../../shared/columns.ts';
import { PROFILE_FACTS, PROFILE_SECTIONS, PROFILE_TABLES } from '../../../shared/profile-fields.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import { ErrorBanner } from '../components/error-banner.tsx';
import { useEscapeCloses } from '../components/escape-closes.ts';
import type { Provenance } from '../data/pipeline.ts';
import { exportProfile } from '../data/exports.ts';
import { generatorDetail, ignoreAbort, openExternal, type Answer } from '../data/tracker-data.ts';
import { ExportButtons } from '../exports/export-buttons.tsx';
import { formatValue } from '../base/format.ts';
import { useAskAgainWhenOnline } from '../data/connectivity.ts';
import { Freshness } from '../offline/freshness.tsx';
import './profile.css';

/** A fact or table cell as the screen shows it: its kind's format, a dash when empty. */
const shown = (kind: ColumnKind, value: string | number | undefined) => formatValue(kind, value) || '—';

/** The first https: address in the server's map HTML, read as text; anything else is ignored. */
export function mapLink(genMap: string): URL | null {
  for (const match of genMap.matchAll(/https:\/\/[^\s"'<>`]+/gi)) {
    try {
      const url = new URL(match[0].replaceAll('&amp;', '&'));
      if (url.protocol === 'https:' && url.username === '' && url.password === '') return url;
    } catch {
      // Not a URL after all; look at the next one.
    }
  }
  return null;
}

function Facts({ rows }: { rows: readonly [string, ReactNode][] }) {
  return (
    <dl className="profile-facts">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Table({
  label,
  headers,
  rows,
  numeric = [],
}: {
  label: string;
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  numeric?: readonly number[];
}) {
  if (rows.length === 0) return <p className="profile-empty">None on record.</p>;
  return (
    <div className="profile-table-frame">
      <table className="profile-table">
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={header} scope="col" className={numeric.includes(index) ? 'number' : undefined}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={index} className={numeric.includes(index) ? 'number' : undefined}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `profile-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section className="profile-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

function factsOf(section: string, detail: GeneratorDetail) {
  return PROFILE_FACTS.filter((entry) => entry.section === section).map((entry): [string, string] => [
    entry.label,
    shown(entry.kind, entry.value(detail)),
  ]);
}

function Profile({ detail }: { detail: GeneratorDetail }) {
  const link = mapLink(detail.gen_map);
  return (
    <div className="profile-body">
      {PROFILE_SECTIONS.filter((section) => section !== 'Location').map((section) => (
        <Section key={section} title={section}>
          <Facts rows={factsOf(section, detail)} />
        </Section>
      ))}
      {PROFILE_TABLES.map((table) => {
        const rows = table
          .rows(detail)
          .map((row) => row.map((value, index) => shown(table.columns[index]!.kind, value)));
        return (
          <Section key={table.title} title={table.title}>
            {/* One record reads as facts; as a one-row table its five headers outgrow a card. */}
            {table.record ? (
              <Facts
                rows={table.columns.map((column, index): [string, string] => [
                  column.header,
                  rows[0]?.[index] ?? '—',
                ])}
              />
            ) : (
              <Table
                label={table.title}
                headers={table.columns.map((column) => column.header)}
                numeric={table.columns.flatMap((column, index) => (isNumeric(column.kind) ? [index] : []))}
                rows={rows}
              />
            )}
          </Section>
        );
      })}
      <Section title="Location">
        <Facts rows={factsOf('Location', detail)} />
        {link && (
          <p>
            <button type="button" onClick={() => void openExternal(link.href)}>
              Open map in browser
            </button>{' '}
            <span className="profile-host">({link.host})</span>
          </p>
        )}
      </Section>
    </div>
  );
}

/** One generator's profile over the workspace it was opened from; Back (or Escape) returns to it. */
export function GeneratorProfile({ handlerId, onClose }: { handlerId: string; onClose: () => void }) {
  const [answer, setAnswer] = useState<
    { id: string; detail: GeneratorDetail; provenance: Provenance } | { id: string; error: IpcError } | null
  >(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const wanted = new AbortController();
    const show = (result: Answer<GeneratorDetail>) =>
      setAnswer(
        result.ok
          ? {
              id: handlerId,
              detail: result.data,
              provenance: { source: result.source, fetchedAt: result.fetchedAt },
            }
          : { id: handlerId, error: result.error },
      );
    generatorDetail(handlerId, wanted.signal, show).then(show, ignoreAbort);
    return () => wanted.abort();
  }, [handlerId, attempt]);

  useEscapeCloses(onClose);

  const shown = answer?.id === handlerId ? answer : null;
  useAskAgainWhenOnline(
    shown !== null && ('error' in shown || shown.provenance.source === 'cache'),
    () => setAttempt((n) => n + 1),
    shown !== null && !('error' in shown) ? shown.provenance.fetchedAt : undefined,
  );
  const name = shown && 'detail' in shown ? shown.detail.generator_data.generator_name : null;
  return (
    <section className="profile" aria-labelledby="profile-title" aria-busy={shown === null}>
      <header className="profile-header">
        <button type="button" onClick={onClose}>
          Back
        </button>
        <h2 id="profile-title">
          {name ?? 'Generator'} <span className="profile-id">{handlerId}</span>
        </h2>
        {shown && 'detail' in shown && <Freshness provenance={shown.provenance} what="profile" />}
        <ExportButtons noun="Profile" csv={false} active start={() => exportProfile(handlerId)} />
      </header>
      {shown === null && (
        <div className="profile-loading">
          <span className="visually-hidden">Loading generator profile…</span>
          <div className="skeleton" />
          <div className="skeleton" />
          <div className="skeleton" />
        </div>
      )}
      {shown &&
        'error' in shown &&
        (shown.error.kind === 'not-found' ? (
          <div role="alert" className="error-banner">
            <div className="error-text">
              <p>No generator with EPA ID {handlerId}.</p>
            </div>
          </div>
        ) : (
          <ErrorBanner
            error={shown.error}
            what="this generator’s profile"
            scope="generators"
            onRetry={() => setAttempt((n) => n + 1)}
          />
        ))}
      {shown && 'detail' in shown && <Profile detail={shown.detail} />}
    </section>
  );
}
