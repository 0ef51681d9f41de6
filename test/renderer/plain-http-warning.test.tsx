/**
 * The plain http:// warning as a user meets it: on the sign-in screen for the address they type (or the
 * configured one), and in the settings; the confirmation goes to main with the sign-in, or with the saved
 * settings, and a server confirmed before shows the warning without asking again.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../shared/ipc/contract.ts';
import { PLAIN_HTTP_MESSAGES } from '../../shared/ipc/plain-http.ts';
import { SignIn } from '../../renderer/src/components/sign-in.tsx';
import { useSession } from '../../renderer/src/data/session.ts';
import { useSettings } from '../../renderer/src/data/settings.ts';
import { SettingsScreen } from '../../renderer/src/settings/settings-screen.tsx';

const SAVED: Settings = {
  apiBaseUrl: 'https://tracker.example.gov',
  pageSize: 100,
  requestTimeoutMs: 20_000,
  theme: 'system',
  plainHttpServers: ['http://confirmed.example.test'],
  removeDataOnSignOut: false,
};

function install() {
  const tracker = {
    session: {
      signIn: vi.fn(() =>
        Promise.resolve({ ok: false as const, error: { kind: 'unauthorized' as const, message: 'no' } }),
      ),
    },
    settings: {
      set: vi.fn((patch: Partial<Settings>) =>
        Promise.resolve({ ok: true as const, data: { ...SAVED, ...patch } }),
      ),
    },
  };
  // Only the methods these screens reach; the data layer reads window.tracker at call time.
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

beforeEach(() => {
  useSettings.setState({ settings: SAVED });
  useSession.setState({ status: { signedIn: false, baseUrl: SAVED.apiBaseUrl }, expired: false });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-in screen', () => {
  it('warns about a plain http:// server and sends the confirmation with the sign-in', async () => {
    const tracker = install();
    render(<SignIn />);
    expect(screen.queryByRole('note')).toBeNull();
    fireEvent.change(screen.getByLabelText('Server URL'), {
      target: { value: 'http://tracker.example.test' },
    });
    expect(screen.getByRole('note').textContent).toContain(
      PLAIN_HTTP_MESSAGES.warning('http://tracker.example.test'),
    );
    fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'inspector' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(screen.getByLabelText(PLAIN_HTTP_MESSAGES.confirm));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(tracker.session.signIn).toHaveBeenCalled());
    expect(tracker.session.signIn.mock.calls[0]).toEqual([
      {
        baseUrl: 'http://tracker.example.test',
        username: 'inspector',
        password: 'secret',
        remember: false,
        allowPlainHttp: true,
      },
      { requestId: expect.stringMatching(/^sign-in-/) as string },
    ]);
  });

  it('shows before the settings are read, warning about a configured plain http:// server', () => {
    install();
    useSettings.setState({ settings: null });
    useSession.setState({ status: { signedIn: false, baseUrl: 'http://tracker.example.test' } });
    render(<SignIn />);
    expect(screen.getByRole('note').textContent).toContain('http://tracker.example.test');
    expect(screen.getByLabelText(PLAIN_HTTP_MESSAGES.confirm)).toBeTruthy();
  });

  it('still warns for a server confirmed before, without asking again', () => {
    install();
    render(<SignIn />);
    fireEvent.change(screen.getByLabelText('Server URL'), {
      target: { value: 'http://confirmed.example.test/' },
    });
    expect(screen.getByRole('note').textContent).toContain('unencrypted');
    expect(screen.queryByLabelText(PLAIN_HTTP_MESSAGES.confirm)).toBeNull();
  });
});

describe('the settings screen', () => {
  it('saves a plain http:// address with its confirmation, and the choice to remove data at sign-out', async () => {
    const tracker = install();
    render(<SettingsScreen onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Server address'), { target: { value: 'http://10.0.0.5:4010' } });
    fireEvent.click(screen.getByLabelText(PLAIN_HTTP_MESSAGES.confirm));
    fireEvent.click(screen.getByLabelText('Always remove my data from this computer when I sign out'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(tracker.settings.set).toHaveBeenCalled());
    expect(tracker.settings.set.mock.calls[0]).toEqual([
      {
        apiBaseUrl: 'http://10.0.0.5:4010',
        plainHttpServers: ['http://confirmed.example.test', 'http://10.0.0.5:4010'],
        removeDataOnSignOut: true,
      },
    ]);
  });
});
