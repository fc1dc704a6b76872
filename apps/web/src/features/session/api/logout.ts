import { call } from '../../../lib/api.ts';
import { tellOtherTabs } from '../../../lib/broadcast.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** POST /user/logout/, then every tab goes to the sign-in page (docs/behaviour/shell-session-domains.md#states). */
export async function logout() {
  await call(endpoints.account.logout, {}).catch(() => undefined);
  tellOtherTabs({ type: 'session' });
  window.location.assign('/login/');
}
