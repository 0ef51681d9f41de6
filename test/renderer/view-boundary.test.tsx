import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ViewBoundary } from '../../renderer/src/components/view-boundary.tsx';

let broken = true;

function Fragile({ label }: { label: string }) {
  if (broken) throw new Error('a row could not be drawn');
  return <p>{label} works</p>;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  broken = true;
});

describe('ViewBoundary', () => {
  it('shows the failure and "Reload view" in place of the broken view; the other view keeps working', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <>
        <ViewBoundary name="Generators workspace">
          <Fragile label="Generators" />
        </ViewBoundary>
        <ViewBoundary name="Manifests workspace">
          <p>Manifests works</p>
        </ViewBoundary>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'The Generators workspace stopped working: a row could not be drawn',
    );
    expect(screen.getByText('Manifests works')).toBeTruthy();
    expect(console.error).toHaveBeenCalled();
  });

  it('mounts the view afresh on "Reload view"', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ViewBoundary name="generator profile">
        <Fragile label="Profile" />
      </ViewBoundary>,
    );
    broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reload view' }));
    expect(screen.getByText('Profile works')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a hidden view’s failure hidden', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { container } = render(
      <ViewBoundary name="Manifests workspace" hidden>
        <Fragile label="Manifests" />
      </ViewBoundary>,
    );
    expect(container.querySelector('.view-failed')?.hasAttribute('hidden')).toBe(true);
  });
});
