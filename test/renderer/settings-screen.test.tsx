import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../shared/ipc/contract.ts';
import { useSettings } from '../../renderer/src/data/settings.ts';
import { SettingsScreen, checkDraft } from '../../renderer/src/settings/settings-screen.tsx';

const SAVED: Settings = {
  apiBaseUrl: 'http://127.0.0.1:4010',
  pageSize: 100,
  requestTimeoutMs: 20_000,
  theme: 'system',
  plainHttpServers: [],
  removeDataOnSignOut: false,
};

function install() {
  const tracker = {
    settings: {
      set: vi.fn((patch: Partial<Settings>) =>
        Promise.resolve({ ok: true as const, data: { ...SAVED, ...patch } }),
      ),
      testConnection: vi.fn(() =>
        Promise.resolve({ ok: true as const, data: { message: 'A tracker API answers there.' } }),
      ),
    },
  };
  // Only the methods the screen reaches; the data layer reads window.tracker at call time.
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

beforeEach(() => useSettings.setState({ settings: SAVED }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('checkDraft', () => {
  it.each([
    [{ pageSize: '5' }, 'pageSize', 'Rows per page must be at least 10.'],
    [{ pageSize: '12.5' }, 'pageSize', 'Rows per page must be a whole number.'],
    [{ pageSize: '' }, 'pageSize', 'Rows per page must be a whole number.'],
    [{ timeoutSeconds: '0.5' }, 'requestTimeoutMs', 'The request timeout must be at least 1 second.'],
    [{ timeoutSeconds: 'soon' }, 'requestTimeoutMs', 'The request timeout must be a number of seconds.'],
    [{ apiBaseUrl: 'ftp://tracker.example.gov' }, 'apiBaseUrl', 'http:// or https://'],
  ])('refuses %o with a message for %s', (change, field, message) => {
    const draft = {
      apiBaseUrl: SAVED.apiBaseUrl,
      pageSize: '100',
      timeoutSeconds: '20',
      theme: 'system' as const,
      plainHttpServers: [],
      removeDataOnSignOut: false,
    };
    const checked = checkDraft({ ...draft, ...change });
    expect('errors' in checked && checked.errors[field as keyof typeof checked.errors]).toContain(message);
  });
});

describe('SettingsScreen', () => {
  it('shows the saved settings under their labels', () => {
    install();
    render(<SettingsScreen onClose={() => undefined} />);
    expect(screen.getByLabelText('Server address')).toHaveProperty('value', SAVED.apiBaseUrl);
    expect(screen.getByLabelText('Rows per page')).toHaveProperty('value', '100');
    expect(screen.getByLabelText('Request timeout (seconds)')).toHaveProperty('value', '20');
    expect(screen.getByRole('radio', { name: 'Follow the system' })).toHaveProperty('checked', true);
  });

  it('saves what passes the shared schema, and the app sees it at once', async () => {
    const tracker = install();
    const onClose = vi.fn();
    render(<SettingsScreen onClose={onClose} />);
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('Request timeout (seconds)'), { target: { value: '45' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(tracker.settings.set).toHaveBeenCalledWith({
      pageSize: 50,
      requestTimeoutMs: 45_000,
      theme: 'dark',
    });
    expect(useSettings.getState().settings).toMatchObject({ pageSize: 50, theme: 'dark' });
  });

  it('sends nothing while a field is wrong, and says which', () => {
    const tracker = install();
    render(<SettingsScreen onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '5000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe('Some settings need fixing; nothing was saved.');
    const rows = screen.getByLabelText('Rows per page');
    expect(rows.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Rows per page must be at most 500.').id).toBe(
      rows.getAttribute('aria-describedby'),
    );
    expect(tracker.settings.set).not.toHaveBeenCalled();
  });

  it('tests the address typed, before it is saved', async () => {
    const tracker = install();
    render(<SettingsScreen onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Server address'), {
      target: { value: 'https://tracker.example.gov/' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByText('A tracker API answers there.')).getAttribute('role')).toBe('status');
    expect(tracker.settings.testConnection).toHaveBeenCalledWith({ baseUrl: 'https://tracker.example.gov/' });
    expect(tracker.settings.set).not.toHaveBeenCalled();
  });
});
