import type { QueryClient } from '@tanstack/react-query';
import { urlOf } from './api.ts';
import { endpoints } from './endpoints.ts';
import { reloadPermissions } from './permissions.ts';

/**
 * The menu socket (endpoints.account.live) pushes {"type":"menu"} when the user's permissions or items change (docs/design.md#api): the
 * permission list and maps reload, and so do the menus. Reconnects with a growing pause.
 */
export function connectMenuSocket(client: QueryClient): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let pause = 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${urlOf(endpoints.account.live, {})}`;
    socket = new WebSocket(url);
    socket.onopen = () => {
      pause = 1000;
    };
    socket.onmessage = (event) => {
      try {
        if ((JSON.parse(String(event.data)) as { type?: string }).type === 'menu') void reloadPermissions(client);
      } catch {
        // Not one of ours: ignored.
      }
    };
    socket.onclose = () => {
      if (stopped) return;
      timer = setTimeout(open, pause);
      pause = Math.min(pause * 2, 60_000);
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
  };
}
