/**
 * Packaging cannot run here (no Electron binary), so the electron-builder configuration is checked the way
 * electron-builder itself checks it before a build, with the validator and YAML reader it ships.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// Resolved through electron-builder (the declared devDependency), whose own modules these are.
const fromElectronBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const { validateConfiguration } = fromElectronBuilder('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration: (config: unknown, logger: unknown) => Promise<void>;
};
const { DebugLogger } = fromElectronBuilder('builder-util/out/DebugLogger.js') as {
  DebugLogger: new (enabled: boolean) => unknown;
};
const yaml = fromElectronBuilder('js-yaml') as { load: (text: string) => unknown };

interface BuilderConfig {
  asar: boolean;
  electronFuses: Record<string, boolean>;
  linux: { target: string[] };
  win: { target: string[] };
  mac: { target: string[] };
}

async function config(): Promise<BuilderConfig> {
  return yaml.load(
    await readFile(new URL('../../electron-builder.yml', import.meta.url), 'utf8'),
  ) as BuilderConfig;
}

describe('electron-builder.yml', () => {
  it('matches electron-builder’s configuration schema', async () => {
    await expect(validateConfiguration(await config(), new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the validator would catch a mistake (so the check above can fail)', async () => {
    const broken = { ...(await config()), electronFuses: { runAsNode: 'no' } };
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/runAsNode/);
  });

  it('packs into asar and flips the fuses that turn the app into a Node runtime or debug target', async () => {
    const { asar, electronFuses } = await config();
    expect(asar).toBe(true);
    expect(electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('builds AppImage and deb for Linux, an NSIS installer for Windows, a dmg for macOS', async () => {
    const { linux, win, mac } = await config();
    expect(linux.target).toEqual(['AppImage', 'deb']);
    expect(win.target).toEqual(['nsis']);
    expect(mac.target).toEqual(['dmg']);
  });
});
