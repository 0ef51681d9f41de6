/**
 * Every sentence a failure shows the user, in one place: the messages main puts in the contract's error
 * values, and the renderer's wording of an error kind around a view. Plain words, which server, what to do
 * next; a message never holds a token.
 */
import type { Scope } from '../api/index.ts';
import type { IpcError } from './contract.ts';

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** What main says, by situation; the functions take the facts the sentence names. */
export const MESSAGES = {
  invalidServerAddress: 'The server address in the settings is not a valid URL.',
  /** Only the caller that cancelled a request gets this; the renderer never shows it. */
  cancelled: 'The app cancelled this request.',
  timedOut: (server: string, timeoutMs: number) =>
    `The server at ${server} did not answer within ${duration(timeoutMs)}.`,
  notJson: 'The server answered with something that is not JSON.',
  answerTooLarge: (server: string, limitBytes: number) =>
    `The server's answer was too large (more than ${size(limitBytes)}), so the app stopped reading it. The server at ${server} may not be a tracker API, or it has a problem.`,
  unexpectedShape: (where: string, issue: string | undefined) =>
    `The server's answer does not match the tracker API${where}: ${issue ?? 'unexpected shape'}.`,
  redirects: (server: string, target: string) =>
    `The server at ${server} redirects${target}; put the address it redirects to in the settings.`,
  badRequest: 'The server did not accept the request.',
  signInRefused: 'The server did not accept the sign-in; sign in again.',
  notAllowed: (said: string) => `Not allowed: ${said}`,
  lacksPermission: (scope: Scope | undefined) =>
    scope
      ? `Your account lacks the "${scope}" permission this needs.`
      : 'Your account lacks the permission this needs.',
  noSuchRecord: 'The server has no such record.',
  tooManyAttempts: (retryAfterSeconds: number | undefined) =>
    `Too many attempts; try again ${retryAfterSeconds === undefined ? 'later' : `in ${retryAfterSeconds} s`}.`,
  serverProblem: (server: string, status: number, said: string | undefined) =>
    `The server at ${server} had a problem (HTTP ${status}).${said ? ` ${said}` : ''}`,
  refused: (status: number) => `The server refused the request (HTTP ${status}).`,
  nothingAnswers: (server: string) =>
    `Nothing answers at ${server}: is the server running and the address right?`,
  cannotFind: (server: string) => `Cannot find ${server}: check the server address and your network.`,
  connectionFailed: (server: string, code: string | undefined) =>
    `The connection to ${server} failed${code ? ` (${code})` : ''}: check your network.`,
  signInFirst: 'Sign in to see this data.',
  sessionExpired: 'Your session has expired; sign in again.',
  wrongCredentials: 'The user name or password is wrong.',
  noOfflineSignIn: (username: string, server: string) =>
    `"${username}" has not signed in to ${server} on this computer yet, so the saved data cannot be opened offline. Sign in once while the server answers; after that you can sign in here offline.`,
  offlineWrongPassword: (username: string) =>
    `The password is not the one "${username}" last signed in with on this computer.`,
  internal: 'Something went wrong inside the app; the details are in its log.',
  onlyHttpsLinks: 'Only https:// links can be opened outside the app.',
  noInput: 'This method takes no input.',
  invalidInput: 'The request is not valid.',
  requestIdInUse: 'A request with this id is already in flight; give each request its own id.',
  noOptions: 'This method takes no options.',
  /** The renderer could not reach main at all (the bridge or IPC refused the call). */
  mainUnreachable: (detail: string) => `The app could not reach its main process: ${detail}`,
} as const;

/**
 * A failure as a view shows it: one sentence in the user's words, what the user can do about it, the
 * server's own words kept apart for whoever supports them, and whether a Retry could succeed.
 */
export interface ErrorWords {
  message: string;
  /** More the user should read: what saved data is missing offline, how long the server was given. */
  hint?: string;
  /** The server's or the app's own words, behind "Details": they help support, not the user. */
  details?: string;
  /** A second try of the same request could answer: the network, the server's health or time can change. */
  retry: boolean;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What a failure means to the user of a view that was loading `what` ("the generators", "this profile");
 * `scope` is the permission the view needs, named when it is missing.
 */
export function describeError(error: IpcError, what: string, scope?: Scope): ErrorWords {
  const said = error.message.trim() === '' ? {} : { details: error.message };
  switch (error.kind) {
    case 'offline':
      // Offline by the user's choice, or because nothing answers: the message after says which, and what
      // saved data is missing.
      return {
        message: `${capitalized(what)} could not be loaded offline.`,
        hint: error.message,
        retry: true,
      };
    case 'timeout':
      return {
        message: `The server did not answer in time, so ${what} could not be loaded.`,
        hint: error.message,
        retry: true,
      };
    case 'forbidden':
      return {
        message: scope
          ? `Your account does not have the “${scope}” permission needed for ${what}. Ask your administrator to grant it.`
          : `Your account is not allowed to see ${what}. Ask your administrator for the permission.`,
        ...said,
        retry: false,
      };
    case 'unauthorized':
      return {
        message: `You are signed out, so ${what} could not be loaded. Sign in to carry on.`,
        retry: false,
      };
    case 'not-found':
      return { message: `The server has nothing to show for ${what}.`, ...said, retry: false };
    case 'bad-request':
      return {
        message: `The server did not accept the request for ${what}; the same request would be refused again. Change the filters or the search.`,
        ...said,
        retry: false,
      };
    case 'invalid-response':
      return {
        message: `The server's answer for ${what} could not be read: it is not what a tracker API sends. A proxy or sign-in page on the network may be answering instead.`,
        ...said,
        retry: true,
      };
    case 'server':
      return {
        message: `The server failed while loading ${what}. Retry in a moment; if it keeps failing, its administrator can look in its log.`,
        ...said,
        retry: true,
      };
    case 'rate-limited':
      return { message: error.message, retry: true };
    case 'cancelled':
      // The data pipeline turns a cancellation into an abort its caller ignores; this is never on screen.
      return { message: `Loading ${what} stopped.`, retry: true };
  }
}
