/**
 * Packaging cannot run here (no Electron binary), so the electron-builder configuration is checked the way
 * electron-builder itself checks it before a build, with the validator and YAML reader it ships, and what
 * the package would carry is checked against what main's bundle actually loads.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

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

/** The packages a bundle of `entry` loads at run time, as electron-vite builds main: every package external. */
async function runtimePackages(entry: string): Promise<string[]> {
  const { build } = await import('vite');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root,
    build: {
      write: false,
      lib: { entry: resolve(root, entry), formats: ['es'], fileName: 'index' },
      rollupOptions: {
        external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((output) =>
    'output' in output ? output.output : [],
  );
  const imports = outputs.flatMap((chunk) => ('imports' in chunk ? chunk.imports : []));
  // Electron is the runtime itself and node: modules are built in; neither is packed.
  return [...new Set(imports.filter((name) => name !== 'electron' && !name.startsWith('node:')))].sort();
}

/** The package.json dependencies the packaged app would carry without loading them, and those it lacks. */
function mismatch(dependencies: readonly string[], loaded: readonly string[]) {
  return {
    carriedUnused: dependencies.filter((name) => !loaded.includes(name)),
    missing: loaded.filter((name) => !dependencies.includes(name)),
  };
}

describe('what the packaged app carries', () => {
  let dependencies: string[];
  let mainLoads: string[];
  beforeAll(async () => {
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    dependencies = Object.keys(manifest.dependencies).sort();
    mainLoads = await runtimePackages('main/src/index.ts');
  });

  it('has as production dependencies exactly the packages main loads at run time', () => {
    expect(mainLoads.length).toBeGreaterThan(0);
    expect(mismatch(dependencies, mainLoads)).toEqual({ carriedUnused: [], missing: [] });
  });

  it('carries neither the reference server nor the libraries bundled into the renderer', () => {
    const serverOrRenderer = ['fastify', 'better-sqlite3', 'pino', 'react', 'react-dom', 'ag-grid-community'];
    expect(dependencies.filter((name) => serverOrRenderer.includes(name))).toEqual([]);
  });

  it('the comparison would catch a server module left in the production dependencies', () => {
    expect(mismatch([...mainLoads, 'fastify'], mainLoads)).toEqual({
      carriedUnused: ['fastify'],
      missing: [],
    });
    expect(mismatch([], mainLoads).missing).toEqual(mainLoads);
  });

  it('packs only the built bundles and package.json, and rebuilds no native module', async () => {
    const { files, npmRebuild } = (await config()) as BuilderConfig & {
      files: string[];
      npmRebuild: boolean;
    };
    expect(files).toEqual(['out/**', 'package.json']);
    expect(npmRebuild).toBe(false);
  });
});
