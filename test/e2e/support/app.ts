/**
 * The app under end-to-end test: the real reference server over a demo database, the main-process handlers
 * behind the loopback browser bridge, and the built renderer with the real preload in Chromium. `App` owns
 * the processes' side; `AppWindow` is one page of the app with `waitFor…` helpers. UI tests drive the page
 * by roles and labels; these helpers are for what the UI does not show (events, what crossed the bridge).
 */
import { resolve } from 'node:path';
import type { BrowserContext, ConsoleMessage, Page } from '@playwright/test';
import type {
  EventName,
  EventPayload,
  Group,
  InputOf,
  MethodOf,
  OutputOf,
} from '../../../shared/ipc/contract.ts';
import { channelOf } from '../../../shared/ipc/contract.ts';
import { startBridge, type RunningBridge } from '../../../main/src/bridge/server.ts';
import { API_BASE_URL_OPTION, launchDefaults } from '../../../main/src/settings/launch-options.ts';
import { startTrackerServer, type TrackerServer } from '../../helpers/tracker-server.ts';
import { ServerGate } from './server-gate.ts';

export const BUILD_ROOT = resolve(import.meta.dirname, '../../../out');

import { DEMO_USERS } from '../../main/support.ts';

export { DEMO_USERS };

export interface AppOptions {
  /** Manifests in the demo dataset; small by default so start-up stays quick. */
  manifests?: number;
  /** Put a gate in front of the server that tests can shut and reopen (`App.gate`). */
  gate?: boolean;
  /** Rows an export's sheet may hold, lowered to see a table continue on numbered sheets. */
  sheetRows?: number;
  /** Run the server as one that implements only the spec (docs/api.md "Spec-only mode"). */
  specOnly?: boolean;
}

export class App {
  readonly server: TrackerServer;
  readonly bridge: RunningBridge;
  /** Everything the bridge logged, refusals included. */
  readonly bridgeLog: string[];
  /** The gate in front of the server, when asked for; the app then talks to the server through it. */
  readonly gate: ServerGate | undefined;

  private constructor(
    server: TrackerServer,
    bridge: RunningBridge,
    bridgeLog: string[],
    gate: ServerGate | undefined,
  ) {
    this.server = server;
    this.bridge = bridge;
    this.bridgeLog = bridgeLog;
    this.gate = gate;
  }

  static async start(options: AppOptions = {}): Promise<App> {
    const server = await startTrackerServer({
      manifests: options.manifests ?? 600,
      specOnly: options.specOnly ?? false,
    });
    const bridgeLog: string[] = [];
    let gate: ServerGate | undefined;
    try {
      if (options.gate) gate = await ServerGate.open(server.baseUrl);
      const bridge = await startBridge({
        rendererRoot: resolve(BUILD_ROOT, 'renderer'),
        preloadFile: resolve(BUILD_ROOT, 'preload/index.cjs'),
        apiBaseUrl: gate?.baseUrl ?? server.baseUrl,
        log: (message) => bridgeLog.push(message),
        ...(options.sheetRows ? { sheetRows: options.sheetRows } : {}),
      });
      return new App(server, bridge, bridgeLog, gate);
    } catch (error) {
      await gate?.close();
      await server.close();
      throw error;
    }
  }

  /** The server address the app uses. */
  get apiBaseUrl(): string {
    return this.gate?.baseUrl ?? this.server.baseUrl;
  }

  /** The app's URL, secret included; `path` is relative to the renderer's root. */
  url(path = ''): string {
    return new URL(path, this.bridge.url).href;
  }

  /** Opens the app in a page of `context` and waits until the preload has exposed window.tracker. */
  async open(context: BrowserContext): Promise<AppWindow> {
    const window = new AppWindow(await context.newPage());
    await window.page.goto(this.url());
    await window.waitForTracker();
    return window;
  }

  /**
   * Calls main from Node as the page would, through the bridge's invoke endpoint; for setting the stage
   * (signing out between tests) without going through a page.
   */
  async invoke<G extends Group, M extends MethodOf<G>>(
    group: G,
    method: M,
    ...input: InputOf<G, M> extends undefined ? [] : [InputOf<G, M>]
  ): Promise<OutputOf<G, M>> {
    const response = await fetch(`${this.bridge.url}__bridge/invoke`, {
      method: 'POST',
      headers: { origin: this.bridge.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: channelOf(group, method), input: input[0] }),
    });
    if (!response.ok) throw new Error(`${group}.${method} answered HTTP ${response.status}`);
    return (await response.json()) as OutputOf<G, M>;
  }

  /**
   * Signs main in without the UI, for tests about what comes after; open pages hear it as session.changed.
   * Tests of signing in itself go through the page.
   */
  async signIn(user: { username: string; password: string } = DEMO_USERS.inspector): Promise<void> {
    const result = await this.invoke('session', 'signIn', { ...user, remember: false });
    if (!result.ok) throw new Error(`signing in as ${user.username} failed: ${result.error.message}`);
  }

  /** Back to a signed-out app with the launcher's settings, as after a fresh start. */
  async reset(): Promise<void> {
    await this.invoke('session', 'signOut');
    const { defaults } = launchDefaults([API_BASE_URL_OPTION, this.apiBaseUrl], {});
    const settings = await this.invoke('settings', 'set', defaults);
    if (!settings.ok) throw new Error(`the settings could not be reset: ${settings.error.message}`);
  }

  async close(): Promise<void> {
    await this.bridge.close();
    await this.gate?.close();
    await this.server.close();
  }
}

/** In-page waits poll this often (ms); the bridge answers in milliseconds. */
const POLLING = 50;

/** The page's globals, seen from Node's types (the test has no DOM types; the page is what has them). */
type PageGlobals = Record<string, unknown>;
type Callable = (input?: unknown) => Promise<unknown>;
type TrackerEvents = { on(event: string, listener: (payload: unknown) => void): () => void };

export class AppWindow {
  readonly page: Page;
  /** Uncaught errors and console errors in the page, CSP violations included. */
  readonly errors: string[] = [];

  constructor(page: Page) {
    this.page = page;
    page.on('pageerror', (error) => this.errors.push(error.message));
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') this.errors.push(message.text());
    });
  }

  async waitForTracker(timeout = 10_000): Promise<void> {
    await this.page.waitForFunction(() => 'tracker' in globalThis, undefined, { timeout, polling: POLLING });
  }

  /** Calls window.tracker in the page, exactly as the renderer would. */
  call<G extends Group, M extends MethodOf<G>>(
    group: G,
    method: M,
    ...input: InputOf<G, M> extends undefined ? [] : [InputOf<G, M>]
  ): Promise<OutputOf<G, M>> {
    return this.page.evaluate(
      ([group, method, input]) => {
        // The page's window.tracker, seen generically: the test's types come from the contract instead.
        const api = (globalThis as unknown as { tracker?: Record<string, Record<string, Callable>> }).tracker;
        const call = api?.[group]?.[method];
        if (!call) throw new Error(`window.tracker.${group}.${method} does not exist`);
        return call(input);
      },
      [group, method, input[0]] as const,
    ) as Promise<OutputOf<G, M>>;
  }

  /** Starts recording an event in the page; the returned function waits for its next occurrence. */
  async listenFor<E extends EventName>(
    event: E,
  ): Promise<{ next(timeout?: number): Promise<EventPayload<E>> }> {
    const key = `__events_${event}`;
    await this.page.evaluate(
      ([event, key]) => {
        const page = globalThis as unknown as PageGlobals & { tracker: TrackerEvents };
        const recorded: unknown[] = [];
        page[key] = recorded;
        page.tracker.on(event, (payload) => recorded.push(payload));
      },
      [event, key] as const,
    );
    let seen = 0;
    return {
      next: async (timeout = 5_000) => {
        const index = seen;
        seen += 1;
        const handle = await this.page.waitForFunction(
          ([key, index]) => ((globalThis as unknown as PageGlobals)[key] as unknown[] | undefined)?.[index],
          [key, index] as const,
          { timeout, polling: POLLING },
        );
        return (await handle.jsonValue()) as EventPayload<E>;
      },
    };
  }

  /** Waits until the page's text contains `text`; for UI tests that wait on what the user sees. */
  async waitForText(text: string, timeout = 10_000): Promise<void> {
    await this.page.getByText(text).first().waitFor({ timeout });
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}
