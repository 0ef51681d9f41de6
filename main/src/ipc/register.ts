/**
 * From the contract to callable channels: every method gets its channel name (`channelOf`), its input and
 * options are parsed from `unknown` with the contract's schemas, and the caller is checked before anything
 * runs. A cancellable method called with a request id is tracked in the sender's own request table for as
 * long as it runs, so `requests.cancel` from that sender (and only that sender) can stop it. This is the
 * transport-neutral core; main/src/electron/ipc.ts plugs it into ipcMain, and the loopback bridge uses
 * `channelTable` the same way.
 */
import { z } from 'zod';
import {
  channelOf,
  contract,
  RequestOptions,
  type Group,
  type Result,
} from '../../../shared/ipc/contract.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import { describeIssues, issuesOf } from '../../../shared/query/parse.ts';
import { failure } from '../api/errors.ts';
import type { CallContext, HandlerContext, Handlers } from './handlers.ts';
import { createSenderRequests, type SenderRequests } from './requests.ts';

/** Who is calling: the second argument they sent, and their own table of requests in flight. */
export interface Caller {
  options?: unknown;
  requests: SenderRequests;
}

/** One method of the contract, found by its channel. */
export interface ChannelEntry {
  readonly channel: string;
  readonly group: Group;
  readonly method: string;
  /**
   * Parses the input (and options) with the contract's schemas and runs the handler. Never throws. Without
   * a caller the call stands alone: nothing else can cancel it.
   */
  invoke(input: unknown, context: HandlerContext, caller?: Caller): Promise<Result<unknown>>;
}

/** Handlers seen through the contract's untyped side: each was type-checked against its method in Handlers. */
type LooseHandler = (input: unknown, context: CallContext) => Promise<Result<unknown>>;
type LooseSpec = { input: z.ZodType; cancellable?: true };

const NoOptions = z.undefined();

export function channelTable(
  handlers: Handlers,
  log: (message: string, error: unknown) => void = console.error,
): ReadonlyMap<string, ChannelEntry> {
  const table = new Map<string, ChannelEntry>();
  for (const group of Object.keys(contract) as Group[]) {
    const methods: Readonly<Record<string, LooseSpec>> = contract[group];
    const groupHandlers = handlers[group] as unknown as Readonly<Record<string, LooseHandler>>;
    for (const [method, spec] of Object.entries(methods)) {
      const handler = groupHandlers[method];
      if (!handler) throw new Error(`No handler for ${group}.${method}`);
      const channel = channelOf(group, method);
      table.set(channel, {
        channel,
        group,
        method,
        async invoke(input, context, caller) {
          const parsed = spec.input.safeParse(input);
          if (!parsed.success) return failure('bad-request', describeInvalidInput(parsed.error));
          const options = (spec.cancellable ? RequestOptions.optional() : NoOptions).safeParse(
            caller?.options,
          );
          if (!options.success) {
            const message = spec.cancellable
              ? describeInvalidInput(options.error, 'options')
              : MESSAGES.noOptions;
            return failure('bad-request', message);
          }
          const requests = caller?.requests ?? createSenderRequests();
          const tracked = options.data ? requests.start(options.data.requestId) : undefined;
          if (options.data && !tracked) return failure('bad-request', MESSAGES.requestIdInUse);
          try {
            return await handler(parsed.data, { ...context, requests, signal: tracked?.signal });
          } catch (error) {
            log(`${channel} failed`, error);
            return failure('server', MESSAGES.internal);
          } finally {
            tracked?.finish();
          }
        },
      });
    }
  }
  return table;
}

/**
 * The first problem with the input, naming the member, e.g. "pageInfo.pageSize: Too big: …", in the words the
 * server and the offline engine use for it (shared/query/parse.ts): a search key the server would refuse is
 * refused here as the server says it, and never sent.
 */
export function describeInvalidInput(error: z.ZodError, whole = 'input'): string {
  const [issue] = error.issues;
  if (!issue) return MESSAGES.invalidInput;
  if (issue.path.length === 0 && issue.code === 'invalid_type' && issue.expected === 'undefined') {
    return MESSAGES.noInput;
  }
  return describeIssues(issuesOf(error), whole);
}

/** The part of ipcMain this needs; the event type is whatever the transport hands the listener. */
export interface InvokeRegistrar<Event> {
  handle(
    channel: string,
    listener: (event: Event, input: unknown, options?: unknown) => Promise<unknown>,
  ): void;
}

export interface RegisterOptions<Event> {
  registrar: InvokeRegistrar<Event>;
  handlers: Handlers;
  context: HandlerContext;
  isTrustedSender(event: Event): boolean;
  /** The sender's own request table: one per window, so one window cannot cancel another's requests. */
  requestsOf(event: Event): SenderRequests;
  /** Told about every message from a foreign sender, which gets no answer. */
  onForeignSender?(channel: string): void;
}

/** Registers one listener per contract method; returns the channels registered. */
export function registerHandlers<Event>(options: RegisterOptions<Event>): string[] {
  const { registrar, context } = options;
  const table = channelTable(options.handlers);
  for (const entry of table.values()) {
    registrar.handle(entry.channel, async (event, input, requestOptions) => {
      if (!options.isTrustedSender(event)) {
        options.onForeignSender?.(entry.channel);
        return undefined;
      }
      return entry.invoke(input, context, { options: requestOptions, requests: options.requestsOf(event) });
    });
  }
  return [...table.keys()];
}
