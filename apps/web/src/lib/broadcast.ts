/**
 * Tabs of the same panel stay in step (docs/behaviour/shell-session-domains.md#states): sign-in, sign-out and a language change make the
 * other tabs reload. Theme and colour travel through storage events instead (lib/theme.ts), so
 * they apply live without a reload.
 */
type TabMessage = { type: 'session' } | { type: 'language'; language: string };

const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('atalaya');

export function tellOtherTabs(message: TabMessage) {
  channel?.postMessage(message);
}

export function listenToOtherTabs(onMessage: (message: TabMessage) => void) {
  if (!channel) return;
  channel.onmessage = (event: MessageEvent<TabMessage>) => onMessage(event.data);
}
