/**
 * A view shown over a workspace (the generator profile, the settings) closes on Escape, unless a dialog over
 * it is open (the session dialog): Escape belongs to the dialog then.
 */
import { useEffect } from 'react';

export function useEscapeCloses(onClose: () => void): void {
  useEffect(() => {
    const close = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.querySelector('dialog[open]')) onClose();
    };
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [onClose]);
}
