/** safeStorage behind the token store's Encryption seam: the only file that touches the OS key store. */
import { safeStorage } from 'electron';
import type { Encryption } from '../session/token-store.ts';

export const safeStorageEncryption: Encryption = {
  isAvailable() {
    if (!safeStorage.isEncryptionAvailable()) return false;
    // Without a key store on Linux, Chromium falls back to "basic_text": a hard-coded key, i.e. no secrecy.
    return process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text';
  },
  encrypt: (text) => safeStorage.encryptString(text),
  decrypt: (data) => safeStorage.decryptString(data),
};
