/**
 * The requests one sender (a window, or the browser bridge's page) has in flight, by the ids it chose. Only
 * this table turns a `requests.cancel` into an aborted signal, and each sender has its own table, so a
 * sender can cancel its own requests and nobody else's.
 */

/** How many cancels of ids not (yet) in flight are remembered: a cancel may overtake its request. */
const EARLY_CANCELS_KEPT = 256;

export interface TrackedRequest {
  readonly signal: AbortSignal;
  /** The request has answered; its id may be used again. */
  finish(): void;
}

export interface SenderRequests {
  /** Tracks a request under the sender's id for it; undefined when that id is already in flight. */
  start(id: string): TrackedRequest | undefined;
  /** Aborts the sender's request with this id, now or as soon as it starts. */
  cancel(id: string): void;
  /** The sender is gone: aborts everything it still has in flight. */
  cancelAll(): void;
}

export function createSenderRequests(): SenderRequests {
  const inFlight = new Map<string, AbortController>();
  const cancelledEarly = new Set<string>();

  return {
    start(id) {
      if (inFlight.has(id)) return undefined;
      const controller = new AbortController();
      if (cancelledEarly.delete(id)) controller.abort();
      inFlight.set(id, controller);
      return {
        signal: controller.signal,
        finish: () => {
          if (inFlight.get(id) === controller) inFlight.delete(id);
        },
      };
    },
    cancel(id) {
      const controller = inFlight.get(id);
      if (controller) {
        controller.abort();
        return;
      }
      cancelledEarly.add(id);
      // Oldest first: a Set iterates in insertion order.
      if (cancelledEarly.size > EARLY_CANCELS_KEPT)
        cancelledEarly.delete(cancelledEarly.values().next().value!);
    },
    cancelAll() {
      for (const controller of inFlight.values()) controller.abort();
      inFlight.clear();
      cancelledEarly.clear();
    },
  };
}
