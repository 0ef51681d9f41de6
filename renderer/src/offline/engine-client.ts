/**
 * The page's handle on the offline engine: a promise per request, answered by the engine in its Web Worker
 * (engine.worker.ts). It implements the OfflineEngine seam the offline store calls; the scope check runs
 * here, on the page, because it reads only the pack's query and the request.
 */
import type {
  EngineOutputs,
  EngineRequest,
  EngineRequestName,
  OfflineEngine,
  PackQuery,
} from './engine/contract.ts';
import { covers } from './engine/covers.ts';
import type { EngineMessage, EngineReply } from './engine/engine-messages.ts';

/** What the client needs of a worker: a Worker, or a MessagePort in tests. */
export interface EnginePort {
  postMessage(message: EngineMessage): void;
  onmessage: ((event: MessageEvent<EngineReply>) => void) | null;
  /** A worker's script failed or threw outside a request: every request waiting is failed with it. */
  onerror?: ((event: ErrorEvent) => void) | null;
}

/** An engine answer that is an error (bad request, not in the pack, not answerable offline). */
export class EngineError extends Error {
  readonly kind: string;
  constructor(kind: string, message: string) {
    super(message);
    this.name = 'EngineError';
    this.kind = kind;
  }
}

type Distribute<Message> = Message extends unknown ? Omit<Message, 'id'> : never;

export class EngineClient implements OfflineEngine {
  private readonly port: EnginePort;
  private readonly waiting = new Map<number, { resolve(data: unknown): void; reject(error: Error): void }>();
  private nextId = 1;

  /** `port` defaults to a new engine worker, bundled by Vite from engine.worker.ts. */
  constructor(port?: EnginePort) {
    this.port =
      port ??
      new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'offline-engine' });
    this.port.onmessage = (event) => {
      const reply = event.data;
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.data);
      else waiter.reject(new EngineError(reply.error.kind, reply.error.message));
    };
    this.port.onerror = (event) => {
      const detail = event.message ? `: ${event.message}` : '';
      const error = new EngineError('offline', `The offline engine stopped${detail}.`);
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
  }

  covers(packQuery: PackQuery, request: EngineRequest): boolean {
    return covers(packQuery, request.name, request.input);
  }

  async openStored(packId: string, database: string): Promise<void> {
    await this.send({ type: 'open-stored', packId, database });
  }

  async indexStored(packId: string, database: string): Promise<void> {
    await this.send({ type: 'index-stored', packId, database });
  }

  answer<Name extends EngineRequestName>(
    packId: string,
    request: EngineRequest<Name>,
  ): Promise<EngineOutputs[Name]> {
    return this.send({ type: 'answer', packId, name: request.name, input: request.input }) as Promise<
      EngineOutputs[Name]
    >;
  }

  close(packId: string): void {
    // Closing only frees memory; the caller has already let go of the pack and waits for nothing.
    this.send({ type: 'close', packId }).catch(() => undefined);
  }

  private send(message: Distribute<EngineMessage>): Promise<unknown> {
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.port.postMessage({ ...message, id });
    });
  }
}
