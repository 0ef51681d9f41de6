/**
 * From the contract to callable channels: every method gets its channel name (`channelOf`), its input is
 * parsed from `unknown` with the contract's schema, and the caller is checked before anything runs. This is
 * the transport-neutral core; main/src/electron/ipc.ts plugs it into ipcMain, and a loopback bridge can use
 * `channelTable` the same way.
 */
import type { z } from 'zod';
import { channelOf, contract, type Group, type Result } from '../../../shared/ipc/contract.ts';
import { failure } from '../api/errors.ts';
import type { HandlerContext, Handlers } from './handlers.ts';

/** One method of the contract, found by its channel. */
export interface ChannelEntry {
  readonly channel: string;
  readonly group: Group;
  readonly method: string;
  /** Parses the input with the contract's schema and runs the handler. Never throws. */
  invoke(input: unknown, context: HandlerContext): Promise<Result<unknown>>;
}

/** Handlers seen through the contract's untyped side: each was type-checked against its method in Handlers. */
type LooseHandler = (input: unknown, context: HandlerContext) => Promise<Result<unknown>>;

export function channelTable(
  handlers: Handlers,
  log: (message: string, error: unknown) => void = console.error,
): ReadonlyMap<string, ChannelEntry> {
  const table = new Map<string, ChannelEntry>();
  for (const group of Object.keys(contract) as Group[]) {
    const methods: Readonly<Record<string, { input: z.ZodType }>> = contract[group];
    const groupHandlers = handlers[group] as unknown as Readonly<Record<string, LooseHandler>>;
    for (const [method, spec] of Object.entries(methods)) {
      const handler = groupHandlers[method];
      if (!handler) throw new Error(`No handler for ${group}.${method}`);
      const channel = channelOf(group, method);
      table.set(channel, {
        channel,
        group,
        method,
        async invoke(input, context) {
          const parsed = spec.input.safeParse(input);
          if (!parsed.success) return failure('bad-request', describeInvalidInput(parsed.error));
          try {
            return await handler(parsed.data, context);
          } catch (error) {
            log(`${channel} failed`, error);
            return failure('server', 'Something went wrong inside the app; the details are in its log.');
          }
        },
      });
    }
  }
  return table;
}

/** The first problem with the input, naming the member, e.g. "pageInfo.pageSize: Too big: …". */
export function describeInvalidInput(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  if (issue.path.length === 0 && issue.code === 'invalid_type' && issue.expected === 'undefined') {
    return 'This method takes no input.';
  }
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'input';
  const message =
    issue.code === 'unrecognized_keys'
      ? `unknown member${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
      : issue.message;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${where}: ${message}${more}`;
}

/** The part of ipcMain this needs; the event type is whatever the transport hands the listener. */
export interface InvokeRegistrar<Event> {
  handle(channel: string, listener: (event: Event, input: unknown) => Promise<unknown>): void;
}

export interface RegisterOptions<Event> {
  registrar: InvokeRegistrar<Event>;
  handlers: Handlers;
  context: HandlerContext;
  isTrustedSender(event: Event): boolean;
  /** Told about every message from a foreign sender, which gets no answer. */
  onForeignSender?(channel: string): void;
}

/** Registers one listener per contract method; returns the channels registered. */
export function registerHandlers<Event>(options: RegisterOptions<Event>): string[] {
  const { registrar, context } = options;
  const table = channelTable(options.handlers);
  for (const entry of table.values()) {
    registrar.handle(entry.channel, async (event, input) => {
      if (!options.isTrustedSender(event)) {
        options.onForeignSender?.(entry.channel);
        return undefined;
      }
      return entry.invoke(input, context);
    });
  }
  return [...table.keys()];
}
