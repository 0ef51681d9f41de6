/** The Electron transport for the handlers: ipcMain in, webContents.send out. */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { eventChannelOf } from '../../../shared/ipc/contract.ts';
import type { HandlerContext, Handlers } from '../ipc/handlers.ts';
import { registerHandlers } from '../ipc/register.ts';
import { createSenderRequests, type SenderRequests } from '../ipc/requests.ts';
import { isTrustedSender } from '../ipc/sender.ts';
import type { EmitEvent } from '../session/session.ts';

type WindowSource = () => BrowserWindow | undefined;

function liveWindow(getWindow: WindowSource): BrowserWindow | undefined {
  const window = getWindow();
  return window && !window.isDestroyed() ? window : undefined;
}

export function registerIpc(options: {
  handlers: Handlers;
  context: HandlerContext;
  getWindow: WindowSource;
  trustedOrigins: readonly string[];
}): void {
  // One request table per webContents: a window cancels only its own requests, and its requests stop
  // when it goes away.
  const tables = new Map<number, SenderRequests>();
  const requestsOf = ({ sender }: IpcMainInvokeEvent): SenderRequests => {
    let table = tables.get(sender.id);
    if (!table) {
      const created = createSenderRequests();
      tables.set(sender.id, created);
      sender.once('destroyed', () => {
        created.cancelAll();
        tables.delete(sender.id);
      });
      table = created;
    }
    return table;
  };
  registerHandlers<IpcMainInvokeEvent>({
    registrar: ipcMain,
    handlers: options.handlers,
    context: options.context,
    isTrustedSender: (event) =>
      isTrustedSender(
        event.senderFrame,
        liveWindow(options.getWindow)?.webContents.mainFrame,
        options.trustedOrigins,
      ),
    requestsOf,
    onForeignSender: (channel) =>
      console.warn(`Ignored ${channel} from a sender that is not the app's window.`),
  });
}

/** Events go to the app's window only; with no window open there is nobody to tell. */
export function windowEventSender(getWindow: WindowSource): EmitEvent {
  return (event, payload) => {
    liveWindow(getWindow)?.webContents.send(eventChannelOf(event), payload);
  };
}
