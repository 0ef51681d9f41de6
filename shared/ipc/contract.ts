/**
 * The IPC contract: every method the renderer may call in main, with its input and output schema, and every
 * event main may send. Main registers its handlers from this map, the preload exposes exactly this map on
 * `window.tracker` (through the plain name list in ./methods.ts, held equal to it by a test), and the
 * renderer's type of `window.tracker` is derived from it. Nothing else crosses.
 *
 * Inputs never carry a URL to fetch, a header or a file path: the renderer asks for data, main decides how.
 *
 * The caller owns its requests: a data method takes, besides its input, options with a request id the
 * caller chose, and `requests.cancel({ id })` stops that request. Main never cancels one caller's request
 * because another started, and a sender can cancel only its own requests.
 */
import { z } from 'zod';
import {
  ExportChunkInput,
  ExportEndInput,
  ExportGridInput,
  ExportId,
  ExportOfflineInput,
  ExportProfileInput,
  ExportStarted,
  exportEvents,
} from './exports.ts';
import {
  GeneratorAggregateRequest,
  GeneratorDetail,
  GeneratorDetailQuery,
  GeneratorList,
  GeneratorListRequest,
  GeneratorLookupQuery,
  GeneratorTotals,
  LookupResult,
  ManifestAggregateRequest,
  ManifestList,
  ManifestListRequest,
  ManifestLookupQuery,
  ManifestTotals,
  Scope,
  LIMITS,
} from '../api/index.ts';
import { APP_COMMANDS } from '../commands/commands.ts';

export const ERROR_KINDS = [
  'unauthorized',
  'forbidden',
  'offline',
  'timeout',
  'bad-request',
  'not-found',
  'server',
  'invalid-response',
  /** The caller cancelled the request; only that caller hears it, and it never reaches the screen. */
  'cancelled',
  /** 429: too many failed sign-ins; the message says when to try again. */
  'rate-limited',
] as const;
export const IpcError = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  status: z.number().int().optional(),
});
export type IpcError = z.infer<typeof IpcError>;
export type ErrorKind = IpcError['kind'];

/**
 * No server answered: the connection was refused or failed, or nothing came back in time. Saved data may
 * answer instead; a refusal, however worded, means the server is there.
 */
export function outOfReach(error: Pick<IpcError, 'kind'>): boolean {
  return error.kind === 'offline' || error.kind === 'timeout';
}

/** Every method answers `{ok: true, data}` or `{ok: false, error}`; failures are values, never throws. */
export function result<Data extends z.ZodType>(data: Data) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({ ok: z.literal(false), error: IpcError }),
  ]);
}
export type Result<Data> = { ok: true; data: Data } | { ok: false; error: IpcError };

/** The path under which the tracker API answers (main/src/api/endpoints.ts), after the server's address. */
const API_PATH = /\/api\/tracker\/?$/;

/**
 * An http(s) origin with an optional path prefix, e.g. http://127.0.0.1:4010 or https://tracker.example.gov/.
 * The API's own address, which a server prints on start (http://127.0.0.1:4010/api/tracker/), is taken as the
 * server's: the address before the API's path.
 */
export const ApiBaseUrl = z
  .string()
  .trim()
  .max(2000)
  .transform((text) => text.replace(API_PATH, '/'))
  .refine((text) => {
    try {
      const url = new URL(text);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
      );
    } catch {
      return false;
    }
  }, 'the server address must be an http:// or https:// URL without credentials');

/** The colour theme: "system" follows the OS's light or dark setting. */
export const ThemePreference = z.enum(['system', 'light', 'dark']);
export type ThemePreference = z.infer<typeof ThemePreference>;

/** The fewest rows per page the settings allow; the most is the API's largest page. */
export const ROWS_PER_PAGE_MIN = 10;

export const Settings = z.object({
  apiBaseUrl: ApiBaseUrl,
  pageSize: z
    .number()
    .int()
    .min(ROWS_PER_PAGE_MIN, `rows per page must be at least ${ROWS_PER_PAGE_MIN}`)
    .max(LIMITS.pageSizeMax, `rows per page must be at most ${LIMITS.pageSizeMax}`),
  requestTimeoutMs: z
    .number()
    .int()
    .min(1000, 'the request timeout must be at least 1 second')
    .max(120_000, 'the request timeout must be at most 120 seconds'),
  theme: ThemePreference,
  /**
   * Servers the user confirmed to use over plain http:// although they are not on this computer (their
   * origins; shared/ipc/plain-http.ts).
   */
  plainHttpServers: z.array(z.string().max(2000)).max(100),
  /** Every sign-out also removes the user's saved data from this computer (a shared desktop). */
  removeDataOnSignOut: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

/** What "Test connection" found at a server address: a tracker API answers there. */
export const ConnectionCheck = z.object({ message: z.string() });
export type ConnectionCheck = z.infer<typeof ConnectionCheck>;

export const SessionStatus = z.object({
  /** Signed in with a token the server issued: requests go to the server. */
  signedIn: z.boolean(),
  username: z.string().optional(),
  scopes: z.array(Scope).optional(),
  baseUrl: z.string(),
  remembered: z.boolean().optional(),
  /**
   * Signed in on this computer alone, the server out of reach (main/src/session/offline-sign-ins.ts): the
   * user's saved data is open, `signedIn` is false, and nothing goes to the server until they sign in there.
   */
  offline: z.boolean().optional(),
});
export type SessionStatus = z.infer<typeof SessionStatus>;

/** Whose saved data is open: the signed-in user's, or the one signed in on this computer alone. */
export function sessionUser(
  status: SessionStatus | null | undefined,
): { baseUrl: string; username: string } | undefined {
  if (!status?.username || !(status.signedIn || status.offline)) return undefined;
  return { baseUrl: status.baseUrl, username: status.username };
}

export const SignInInput = z.strictObject({
  baseUrl: ApiBaseUrl.optional(),
  username: z.string().trim().min(1, 'enter a user name').max(100),
  password: z.string().min(1, 'enter a password').max(1000),
  remember: z.boolean(),
  /** The user confirmed the warning for a server on plain http:// (shared/ipc/plain-http.ts). */
  allowPlainHttp: z.boolean().optional(),
  /** Sign in on this computer alone, without asking the server (SessionStatus `offline`). */
  offline: z.boolean().optional(),
});
export type SignInInput = z.infer<typeof SignInInput>;

const NoInput = z.undefined();

/** A caller's name for one of its requests, unique among its requests in flight. */
export const RequestId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a request id is 1 to 64 letters, digits, "-" or "_"');

/** The second argument of a cancellable method. */
export const RequestOptions = z.strictObject({ requestId: RequestId });
export type RequestOptions = z.infer<typeof RequestOptions>;

export const OpenExternalInput = z.strictObject({ url: z.string().max(4000) });

/** Generator details asked for at once (an offline pack's batch); main fetches them a few at a time. */
export const GENERATOR_DETAILS_MAX = 200;

export const GeneratorDetailsInput = z.strictObject({
  ids: z
    .array(GeneratorDetailQuery.shape.handler_id)
    .min(1, 'name at least one generator')
    .max(GENERATOR_DETAILS_MAX, `name at most ${GENERATOR_DETAILS_MAX} generators at once`),
  /** Also each generator's own totals (its aggregated_data with ids=[id]), which the detail lacks. */
  totals: z.boolean().default(false),
});
export type GeneratorDetailsInput = z.input<typeof GeneratorDetailsInput>;

/** Each found generator's detail (and own totals when asked), in the order asked; unknown ids apart. */
export const GeneratorDetails = z.object({
  found: z.array(z.object({ detail: GeneratorDetail, totals: GeneratorTotals.optional() })),
  /** Ids the server does not know (404): not an error, the rest of the batch stands. */
  missing: z.array(z.string()),
});
export type GeneratorDetails = z.infer<typeof GeneratorDetails>;

export const contract = {
  session: {
    /** Cancellable: a server that hangs keeps the user waiting only until they cancel. */
    signIn: { input: SignInInput, output: result(SessionStatus), cancellable: true },
    signOut: { input: NoInput, output: result(SessionStatus) },
    /**
     * Signs out and removes the user's data from this computer: main's export scratch files and undelivered
     * downloads, and (told by the `session.changed` event) the renderer's saved pages and offline packs.
     */
    signOutAndRemoveData: { input: NoInput, output: result(SessionStatus) },
    status: { input: NoInput, output: result(SessionStatus) },
    /**
     * Whether the session's server answers at all, within a few seconds (no token is sent): the renderer's
     * connectivity asks it to tell a network that hangs from a server that is only slow to answer a query.
     */
    probe: { input: NoInput, output: result(z.null()) },
  },
  settings: {
    get: { input: NoInput, output: result(Settings) },
    set: { input: Settings.partial().strict(), output: result(Settings) },
    /** Asks the server at an address (not yet saved) whether a tracker API answers there; no token is sent. */
    testConnection: { input: z.strictObject({ baseUrl: ApiBaseUrl }), output: result(ConnectionCheck) },
  },
  generators: {
    aggregate: { input: GeneratorAggregateRequest, output: result(GeneratorTotals), cancellable: true },
    list: { input: GeneratorListRequest, output: result(GeneratorList), cancellable: true },
    lookup: { input: GeneratorLookupQuery, output: result(LookupResult), cancellable: true },
    detail: { input: GeneratorDetailQuery, output: result(GeneratorDetail), cancellable: true },
    /** Many details in one reply: one IPC round trip instead of one per generator. */
    details: { input: GeneratorDetailsInput, output: result(GeneratorDetails), cancellable: true },
  },
  manifests: {
    aggregate: { input: ManifestAggregateRequest, output: result(ManifestTotals), cancellable: true },
    list: { input: ManifestListRequest, output: result(ManifestList), cancellable: true },
    lookup: { input: ManifestLookupQuery, output: result(LookupResult), cancellable: true },
  },
  requests: {
    /** Cancels one of the sender's own requests in flight; an id it does not know is no error. */
    cancel: { input: z.strictObject({ id: RequestId }), output: result(z.null()) },
  },
  exports: {
    /** Asks the user where to save, then starts writing every matching row; progress follows as events. */
    grid: { input: ExportGridInput, output: result(ExportStarted) },
    /** A generator's profile as a workbook, saved where the user says. */
    profile: { input: ExportProfileInput, output: result(ExportStarted) },
    /** Stops an export and removes what it wrote; an id that is not running is no error. */
    cancel: { input: z.strictObject({ id: ExportId }), output: result(z.null()) },
    /** Asks where to save an export of offline data; its rows follow through `offlineChunk`. */
    offlineStart: { input: ExportOfflineInput, output: result(ExportStarted) },
    /** Writes the next rows of an offline export; answers once written, or refuses a bad chunk. */
    offlineChunk: { input: ExportChunkInput, output: result(z.null()) },
    /** Finishes an offline export after its last chunk, or fails it with the renderer's reason. */
    offlineEnd: { input: ExportEndInput, output: result(z.null()) },
  },
  shell: {
    /** Opens an https: link in the user's browser; anything else is refused. */
    openExternal: { input: OpenExternalInput, output: result(z.null()) },
  },
} as const;

/** Events main sends to the renderer. */
export const events = {
  'session.changed': z.object({
    status: SessionStatus,
    reason: z.enum(['signed-in', 'signed-out', 'expired']),
    /** With a sign-out: remove the data of the user who signed out from this computer. */
    removeData: z.literal(true).optional(),
  }),
  ...exportEvents,
  /** A command chosen in the application menu; the page carries it out as it does its own shortcuts. */
  'menu.command': z.object({ command: z.enum(APP_COMMANDS) }),
} as const;

export type Contract = typeof contract;
export type Group = keyof Contract;
export type MethodOf<G extends Group> = keyof Contract[G] & string;
type Spec<G extends Group, M extends MethodOf<G>> = Contract[G][M] extends {
  input: z.ZodType;
  output: z.ZodType;
}
  ? Contract[G][M]
  : never;
export type InputOf<G extends Group, M extends MethodOf<G>> = z.input<Spec<G, M>['input']>;
export type OutputOf<G extends Group, M extends MethodOf<G>> = z.output<Spec<G, M>['output']>;
/** What a handler receives after its input was parsed (defaults applied). */
export type ParsedInputOf<G extends Group, M extends MethodOf<G>> = z.output<Spec<G, M>['input']>;

export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

export { channelOf, eventChannelOf } from './methods.ts';

/** The shape of `window.tracker`, derived from the contract. */
export type TrackerApi = {
  [G in Group]: {
    [M in MethodOf<G>]: Contract[G][M] extends { cancellable: true }
      ? (input: InputOf<G, M>, options?: RequestOptions) => Promise<OutputOf<G, M>>
      : InputOf<G, M> extends undefined
        ? () => Promise<OutputOf<G, M>>
        : (input: InputOf<G, M>) => Promise<OutputOf<G, M>>;
  };
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};
