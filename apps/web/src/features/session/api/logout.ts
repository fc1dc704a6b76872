import { post } from '../../../lib/api.ts';
import { tellOtherTabs } from '../../../lib/broadcast.ts';

/** POST /user/logout/, then every tab goes to the sign-in page (spec §4). */
export async function logout() {
  await post('user/logout/').catch(() => undefined);
  tellOtherTabs({ type: 'session' });
  window.location.assign('/login/');
}
