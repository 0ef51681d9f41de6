/**
 * What the app offers follows the user's permissions: from the sign-in answer when the server names them,
 * else from the server's first refusal in this session, and only for that session.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../shared/ipc/contract.ts';
import { accessOf, scopeRefused, usePermissions } from '../../renderer/src/data/permissions.ts';
import { useSession } from '../../renderer/src/data/session.ts';
import { MakeAvailableOffline } from '../../renderer/src/offline/make-available-offline.tsx';

const AT = 'http://127.0.0.1:1';
const signedIn = (username: string, scopes?: SessionStatus['scopes']): SessionStatus => ({
  signedIn: true,
  username,
  baseUrl: AT,
  ...(scopes ? { scopes } : {}),
});

beforeEach(() => usePermissions.setState({ refused: {} }));
afterEach(cleanup);

describe('access to what a scope guards', () => {
  it('follows the scopes the sign-in answer named', () => {
    const status = signedIn('inspector', ['generators']);
    expect(accessOf(status, {}, 'generators')).toBe('granted');
    expect(accessOf(status, {}, 'manifests')).toBe('denied');
  });

  it('is unknown until the server refuses, when it did not name them, and the refusal is this session’s only', () => {
    useSession.setState({ status: signedIn('generators-only'), expired: false });
    expect(accessOf(useSession.getState().status, usePermissions.getState().refused, 'manifests')).toBe(
      'unknown',
    );
    scopeRefused('manifests');
    const { refused } = usePermissions.getState();
    expect(accessOf(signedIn('generators-only'), refused, 'manifests')).toBe('denied');
    expect(accessOf(signedIn('generators-only'), refused, 'generators')).toBe('unknown');
    expect(accessOf(signedIn('inspector'), refused, 'manifests')).toBe('unknown');
  });
});

describe('Make available offline', () => {
  const query = { list: 'manifests' as const, filterFields: {}, searchKey: '' };

  it('says which permission a pack of manifests lacks instead of offering a download that must fail', () => {
    // A pack of manifests also takes their generators.
    useSession.setState({ status: signedIn('manifests-only', ['manifests']), expired: false });
    render(<MakeAvailableOffline query={query} rows={null} />);
    expect(screen.queryByRole('button', { name: 'Make available offline' })).toBeNull();
    expect(screen.getByRole('note').textContent).toBe(
      'No offline packs: they need the “generators” permission your account lacks.',
    );
  });

  it('is offered when the user may read everything a pack takes', () => {
    useSession.setState({ status: signedIn('inspector', ['generators', 'manifests']), expired: false });
    render(<MakeAvailableOffline query={query} rows={null} />);
    expect(screen.getByRole('button', { name: 'Make available offline' })).toBeTruthy();
  });
});
