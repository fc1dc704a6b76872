import { hashPassword } from '../../passwords.ts';
import type { Store } from '../../store/db.ts';
import { localState } from '../local-state.ts';
import type { FtpDriver } from './interface.ts';

export function localFtpDriver(store: Store): FtpDriver {
  const users = localState<{ home: string; hash: string }>(store, 'ftp.user');
  return {
    async ensureUser({ login, password, home }) {
      await users.put(login, { home, hash: await hashPassword(password) });
    },
    removeUser: (login) => users.remove(login),
  };
}
