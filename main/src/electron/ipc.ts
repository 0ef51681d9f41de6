/** The Electron transport for the handlers: ipcMain in, webContents.send out. */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { eventChannelOf } from '../../../shared/ipc/contract.ts';
import type { HandlerContext, Handlers } from '../ipc/handlers.ts';
import { registerHandlers } from '../ipc/register.ts';
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
