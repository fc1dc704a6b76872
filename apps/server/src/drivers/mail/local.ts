import { hashPassword } from '../../passwords.ts';
import type { Store } from '../../store/db.ts';
import { localState } from '../local-state.ts';
import type { Autoresponder, Forwarding, MailDriver } from './interface.ts';

interface LocalMailbox {
  address: string;
  quota: number;
  used: number;
  /** What the real server's Sieve script would hold, so the demo shows it applied. */
  autoresponder: Autoresponder | null;
  forward: Forwarding | null;
  /** argon2id, as the real passwd-file keeps it: the backend never holds the clear password. */
  hash: string;
}

export function localMailDriver(store: Store): MailDriver {
  const boxes = localState<LocalMailbox>(store, 'mail.box');
  const aliases = localState<{ targets: string[] }>(store, 'mail.alias');
  // Which selectors sign and which are only published; the private keys stay sealed in the panel's rows.
  const dkim = localState<{ selectors: { selector: string; sign: boolean }[] }>(store, 'mail.dkim');
  return {
    async ensureMailbox({ address, password, quota, autoresponder, forward }) {
      const previous = await boxes.get(address);
      await boxes.put(address, {
        address,
        quota,
        used: previous?.used ?? 0,
        hash: await hashPassword(password),
        autoresponder: autoresponder ?? null,
        forward: forward ?? null,
      });
    },
    removeMailbox: (address) => boxes.remove(address),
    ensureAlias: ({ address, targets }) => aliases.put(address, { targets }),
    removeAlias: (address) => aliases.remove(address),
    ensureDkim: (domain, keys) =>
      keys.length ? dkim.put(domain, { selectors: keys.map(({ selector, sign }) => ({ selector, sign })) }) : dkim.remove(domain),
    async usage(addresses) {
      const out: Record<string, number> = {};
      for (const address of addresses) {
        const box = await boxes.get(address);
        if (box) out[address] = box.used;
      }
      return out;
    },
  };
}
