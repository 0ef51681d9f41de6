/**
 * The generator profile, from the detail endpoint: identity, addresses, contact, activity, totals, site
 * activities, code tables and location. gen_map is untrusted HTML from the server and is never rendered:
 * only an https: address found in it is offered, opened by main in the user's browser.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { GeneratorDetail } from '../../../shared/api/index.ts';
import type { IpcError } from '../../../shared/ipc/contract.ts';
import { ErrorBanner } from '../components/error-banner.tsx';
import type { Provenance } from '../data/pipeline.ts';
import { generatorDetail, ignoreAbort, openExternal, type Answer } from '../data/tracker-data.ts';
import { Freshness } from '../offline/freshness.tsx';
import { formatCount, formatTons } from '../format.ts';
import './profile.css';

type Data = GeneratorDetail['generator_data'];

const dash = (text: string | undefined) => (text && text.trim() !== '' ? text : '—');

function yesNo(value: string | undefined): string {
  const text = (value ?? '').trim().toUpperCase();
  if (text === 'Y' || text === 'YES' || text === 'TRUE') return 'Yes';
  if (text === 'N' || text === 'NO' || text === 'FALSE') return 'No';
  return dash(value);
}

function joinParts(parts: readonly (string | undefined)[], separator = ' '): string {
  return parts.filter((part) => part && part.trim() !== '').join(separator);
}

function mailing(data: Data): string {
  const street = joinParts([data.mail_street_number, data.mail_street_1, data.mail_street_2]);
  const place = joinParts([joinParts([data.mail_city, data.mail_state], ', '), data.mail_zip]);
  return joinParts([street, place], ', ') || dash(data.mailing_address);
}

function physical(data: Data): string {
  const street = joinParts([data.location_street_number, data.location_street_1, data.location_street_2]);
  const place = joinParts([joinParts([data.location_city, data.location_state], ', '), data.location_zip]);
  return joinParts([street, place], ', ') || dash(data.full_address || data.physical_address);
}

/** Coordinates when both parse as numbers in range; otherwise none. */
export function coordinates(data: Data): { latitude: number; longitude: number } | null {
  const latitude = Number.parseFloat(data.location_latitude);
  const longitude = Number.parseFloat(data.location_longitude);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}

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

function Profile({ detail }: { detail: GeneratorDetail }) {
  const data = detail.generator_data;
  const type = detail.type_data;
  const site = detail.site_activities;
  const where = coordinates(data);
  const link = mapLink(detail.gen_map);
  return (
    <div className="profile-body">
      <Section title="Identity">
        <Facts
          rows={[
            ['EPA handler ID', data.epa_handler_id],
            ['State handler ID', dash(data.state_handler_id)],
            ['Registration status', dash(data.registration_status)],
            [
              'Federal generator status',
              joinParts(
                [
                  data.federal_generator_status_universe,
                  data.federal_generator_status_universe_code &&
                    `(${data.federal_generator_status_universe_code})`,
                ],
                ' ',
              ) || '—',
            ],
            ['Land type', dash(data.land_type)],
            ['Industry', yesNo(data.is_industry)],
            ['Primary NAICS', joinParts([data.primary_naics_code, data.primary_naics_desc], ' – ') || '—'],
          ]}
        />
      </Section>
      <Section title="Addresses">
        <Facts
          rows={[
            ['Physical (location)', physical(data)],
            ['Mailing', mailing(data)],
          ]}
        />
      </Section>
      <Section title="Contact">
        <Facts
          rows={[
            ['Name', dash(data.contact_name)],
            ['Email', dash(data.contact_email)],
            ['Phone', dash(data.contact_phone_number)],
          ]}
        />
      </Section>
      <Section title="Activity indicators">
        <Facts
          rows={[
            [
              'Short-term generator',
              yesNo(data.short_term_generator_activity || type.short_term_generator_activity),
            ],
            ['Mixed waste generator', yesNo(data.mixed_waste_generator || type.mixed_waste_generator)],
            ['Transporter', yesNo(data.transporter_activity || type.transporter_activity)],
            [
              'Transfer facility',
              yesNo(data.transfer_facility_activity || type.transporter_facility_activity),
            ],
            ['Importer', yesNo(data.importer_activity || type.importer_activity)],
          ]}
        />
      </Section>
      <Section title="Totals">
        <Facts
          rows={[
            ['Generated waste (tons)', formatTons(data.total_generated_waste)],
            ['Shipped waste (tons)', formatTons(data.shipped_waste)],
            ['Managed waste (tons)', formatTons(data.managed_waste)],
            ['Received waste (tons)', formatTons(data.received_waste)],
            ['Manifests shipped', formatCount(data.total_shipped)],
            ['Containers', formatCount(data.total_container)],
            ['Management methods', formatCount(data.total_mmc)],
            ['Shipped years', dash(data.shipped_years.split(',').join(', '))],
          ]}
        />
      </Section>
      <Section title="Site activities">
        <Table
          label="Site activities"
          headers={['Report year', 'Generated (tons)', 'Managed (tons)', 'Shipped (tons)', 'Received (tons)']}
          numeric={[1, 2, 3, 4]}
          rows={[
            [
              site.report_year,
              formatTons(site.generated_waste),
              formatTons(site.managed_waste),
              formatTons(site.shipped_waste),
              formatTons(site.received_waste),
            ],
          ]}
        />
      </Section>
      <Section title="Waste codes">
        <Table
          label="Waste codes"
          headers={['Code', 'Description']}
          rows={detail.waste_code_data.map((entry) => [entry.code, dash(entry.description)])}
        />
      </Section>
      <Section title="Management methods">
        <Table
          label="Management methods"
          headers={['Code', 'Description']}
          rows={detail.mmc_codes.map((entry) => [
            entry.management_method,
            dash(entry.management_method_description),
          ])}
        />
      </Section>
      <Section title="NAICS codes">
        <Table
          label="NAICS codes"
          headers={['Code', 'Description', 'Active']}
          rows={detail.naics_codes.map((entry) => [
            entry.naics_code,
            dash(entry.naics_desc),
            yesNo(entry.is_active),
          ])}
        />
      </Section>
      <Section title="SIC codes">
        <Table
          label="SIC codes"
          headers={['Code', 'Description']}
          rows={detail.sic_codes.map((entry) => [String(entry.sic_code), dash(entry.sic_desc)])}
        />
      </Section>
      <Section title="Location">
        <p>
          {where
            ? `Latitude ${where.latitude.toFixed(5)}, longitude ${where.longitude.toFixed(5)}`
            : 'No coordinates on record.'}
        </p>
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

  useEffect(() => {
    const close = (event: KeyboardEvent) => {
      // Escape in a dialog over the profile (the session dialog) belongs to the dialog.
      if (event.key === 'Escape' && !document.querySelector('dialog[open]')) onClose();
    };
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [onClose]);

  const shown = answer?.id === handlerId ? answer : null;
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
            No generator with EPA ID {handlerId}.
          </div>
        ) : (
          <ErrorBanner
            error={shown.error}
            what="generator profiles"
            scope="generators"
            onRetry={() => setAttempt((n) => n + 1)}
          />
        ))}
      {shown && 'detail' in shown && <Profile detail={shown.detail} />}
    </section>
  );
}
