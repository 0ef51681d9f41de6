import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeneratorDetail } from '../../shared/api/index.ts';
import type { Result } from '../../shared/ipc/contract.ts';
import { followServerReach, useConnectivity } from '../../renderer/src/data/connectivity.ts';
import { GeneratorProfile, mapLink } from '../../renderer/src/profile/generator-profile.tsx';

/** A detail as the sample dialect sends it: misspelled names, numbers as text, waste codes as an object. */
function wireDetail(genMap: string) {
  return GeneratorDetail.parse({
    generator_data: {
      epa_handler_id: 'TXD000000001',
      generator_name: 'Gulf Coast Chemical Works',
      mail_street_number: '12',
      mail_street_1: 'Harbor Rd',
      mail_city: 'Houston',
      mail_state: 'TX',
      mail_zip: '77001',
      location_street_number: '400',
      location_street_1: 'Refinery Way',
      location_city: 'Pasadena',
      location_state: 'TX',
      location_zip: '77506',
      contact_name: 'Ada Ruiz',
      contact_email: 'ada@example.com',
      primary_naics_code: '325199',
      primary_naics_desc: 'All Other Basic Organic Chemical Manufacturing',
      total_generated_waste: ' 1,234.5',
      total_container: '2,001',
      total_mmc: '3',
      total_shipped: '57',
      shipped_years: '2023,2024',
      federal_generator_status_universe: 'Large Quantity Generator',
      federal_generator_status_universe_code: 'LQG',
      short_term_generator_activity: 'N',
      importer_activity: 'Y',
      location_lattitude: '29.69',
      location_longitude: '-95.2',
      managed_waste: '10',
      shipped_waste: '1,200.25',
      recieved_waste: '0',
      registration_status: 'Active',
    },
    type_data: {},
    site_activities: {
      report_year: 2024,
      generated_waste: '1,234.5',
      managed_waste: '10',
      shipped_waste: '1,200.25',
      recieved_waste: '0',
    },
    waste_code_data: { D001: 'Ignitable waste', F003: 'Spent non-halogenated solvents' },
    mmc_codes: [{ management_method: 'H061', management_method_description: 'Fuel blending' }],
    naics_codes: [{ naics_code: '325199', naics_desc: 'Basic organic chemicals', is_active: 'Y' }],
    sic_codes: [{ sic_code: '2869', sic_desc: 'Industrial organic chemicals' }],
    gen_map: genMap,
    is_network: false,
    is_tracker_enable: true,
  });
}

const HOSTILE_MAP =
  '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">' +
  '<a href="https://maps.example.gov/?q=29.69,-95.2&amp;z=12">map</a>';

function install(answers: Record<string, Result<GeneratorDetail>>) {
  const tracker = {
    generators: {
      detail: vi.fn(({ handler_id }: { handler_id: string }) =>
        Promise.resolve(
          answers[handler_id] ?? {
            ok: false as const,
            error: { kind: 'not-found' as const, message: 'gone' },
          },
        ),
      ),
    },
    requests: {
      cancel: vi.fn((_input: { id: string }) => Promise.resolve({ ok: true as const, data: null })),
    },
    shell: { openExternal: vi.fn(() => Promise.resolve({ ok: true as const, data: null })) },
  };
  // Only the methods the profile reaches; the data layer resolves window.tracker at call time.
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useConnectivity.setState({ reach: 'online' });
});

describe('GeneratorProfile', () => {
  it('shows identity, addresses, totals and code tables, read from the sample dialect', async () => {
    install({ TXD000000001: { ok: true, data: wireDetail(HOSTILE_MAP) } });
    render(<GeneratorProfile handlerId="TXD000000001" onClose={() => undefined} />);
    expect(await screen.findByRole('heading', { level: 2, name: /Gulf Coast Chemical Works/ })).toBeTruthy();
    expect(screen.getByText('400 Refinery Way, Pasadena, TX 77506')).toBeTruthy();
    expect(screen.getByText('12 Harbor Rd, Houston, TX 77001')).toBeTruthy();
    expect(screen.getByText('Large Quantity Generator (LQG)')).toBeTruthy();
    expect(screen.getAllByText('1,234.50').length).toBeGreaterThan(0);
    expect(screen.getByText('2,001')).toBeTruthy();
    const codes = screen.getByRole('table', { name: 'Waste codes' });
    expect(
      within(codes)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['CodeDescription', 'D001Ignitable waste', 'F003Spent non-halogenated solvents']);
    expect(
      within(screen.getByRole('table', { name: 'Management methods' })).getByText('Fuel blending'),
    ).toBeTruthy();
    expect(screen.getByText('29.69')).toBeTruthy();
    expect(screen.getByText('-95.2')).toBeTruthy();
  });

  it('never renders the server map HTML; only its https address is offered, opened by main', async () => {
    const tracker = install({ TXD000000001: { ok: true, data: wireDetail(HOSTILE_MAP) } });
    const { container } = render(<GeneratorProfile handlerId="TXD000000001" onClose={() => undefined} />);
    const open = await screen.findByRole('button', { name: 'Open map in browser' });
    expect(container.querySelector('script, img, iframe, a')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
    expect(screen.getByText('(maps.example.gov)')).toBeTruthy();
    fireEvent.click(open);
    expect(tracker.shell.openExternal).toHaveBeenCalledWith({
      url: 'https://maps.example.gov/?q=29.69,-95.2&z=12',
    });
  });

  it('offers no link for javascript: or http: maps', () => {
    expect(mapLink('<a href="javascript:alert(1)">x</a><a href="http://maps.example.gov/">y</a>')).toBeNull();
    expect(mapLink('')).toBeNull();
  });

  it('says when there is no such generator, and retries other failures once the server answers', async () => {
    const tracker = install({});
    // The app's probe: the server answers it again by the time the user retries.
    let answers = false;
    const stopProbing = followServerReach(() => Promise.resolve(answers));
    render(<GeneratorProfile handlerId="NOPE00000000" onClose={() => undefined} />);
    expect((await screen.findByRole('alert')).textContent).toBe('No generator with EPA ID NOPE00000000.');
    cleanup();
    tracker.generators.detail.mockResolvedValueOnce({
      ok: false,
      error: { kind: 'offline', message: 'down' },
    });
    render(<GeneratorProfile handlerId="TXD000000001" onClose={() => undefined} />);
    expect((await screen.findByRole('alert')).textContent).toContain('could not be loaded offline');
    tracker.generators.detail.mockResolvedValueOnce({ ok: true, data: wireDetail('') });
    answers = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 2, name: /Gulf Coast/ })).toBeTruthy();
    stopProbing();
  });

  it('opening another generator cancels the detail it no longer wants, and shows no error for it', async () => {
    const tracker = install({ TXD000000001: { ok: true, data: wireDetail('') } });
    tracker.generators.detail.mockImplementationOnce(() => new Promise(() => undefined));
    const view = render(<GeneratorProfile handlerId="SLOW00000000" onClose={() => undefined} />);
    // The pipeline looks in saved data first; the slow request must have reached main before it is dropped.
    await waitFor(() => expect(tracker.generators.detail).toHaveBeenCalledTimes(1));
    view.rerender(<GeneratorProfile handlerId="TXD000000001" onClose={() => undefined} />);
    expect(await screen.findByRole('heading', { level: 2, name: /Gulf Coast/ })).toBeTruthy();
    const [slow] = tracker.generators.detail.mock.calls;
    const slowId = (slow as unknown as [unknown, { requestId: string }])[1].requestId;
    expect(tracker.requests.cancel).toHaveBeenCalledExactlyOnceWith({ id: slowId });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names the missing permission on a 403', async () => {
    const tracker = install({});
    tracker.generators.detail.mockResolvedValueOnce({
      ok: false,
      error: { kind: 'forbidden', message: 'no' },
    });
    render(<GeneratorProfile handlerId="TXD000000001" onClose={() => undefined} />);
    expect((await screen.findByRole('alert')).textContent).toContain('“generators” permission');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('goes back on Back and on Escape', async () => {
    install({ TXD000000001: { ok: true, data: wireDetail('') } });
    const onClose = vi.fn();
    render(<GeneratorProfile handlerId="TXD000000001" onClose={onClose} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
