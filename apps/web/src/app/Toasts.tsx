import { LIMITS } from '@atalaya/contract';
import { Notifications } from '@mantine/notifications';

/** The toast area (bottom right, 5 s); loaded after the first paint, toasts queue until then. */
export default function Toasts() {
  return <Notifications position="bottom-right" autoClose={LIMITS.toastMs} />;
}
