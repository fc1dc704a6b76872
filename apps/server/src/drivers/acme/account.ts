import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import type { Client } from 'acme-client';
import type { Config } from '../../config/config.ts';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import { now } from '../../store/db.ts';
import { acmeAgents, acmeClient } from './client.ts';

export interface AcmeAccount {
  client: Client;
  directoryUrl: string;
}

/**
 * The panel's ACME account for the configured directory: its key is made once, sealed with the
 * panel's key in `acme_account`, and registered (or found again, RFC 8555 §7.3.1) on first use.
 * The CA file, when set, is read at start so a wrong path stops the server instead of the first order.
 */
export function acmeAccounts(config: Config, store: Store, secrets: Secrets) {
  const { directoryUrl, email, caFile } = config.acme;
  if (caFile) {
    const ca = readFileSync(caFile, 'utf8');
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`acme.caFile: ${caFile} holds no PEM certificate`);
    acmeAgents.set(new URL(directoryUrl).origin, new Agent({ ca }));
  }
  let ready: Promise<AcmeAccount> | null = null;

  async function keyOf(): Promise<{ key: string; url: string | null }> {
    const find = () => store.selectFrom('acme_account').selectAll().where('directory_url', '=', directoryUrl).executeTakeFirst();
    let row = await find();
    if (!row) {
      const key = (await (await acmeClient()).crypto.createPrivateEcdsaKey('P-256')).toString();
      // Two processes may race here: the first insert wins and both use its key.
      await store
        .insertInto('acme_account')
        .values({ directory_url: directoryUrl, key_sealed: secrets.encrypt(key), account_url: null, created_at: now() })
        .onConflict((c) => c.column('directory_url').doNothing())
        .execute();
      row = await find();
    }
    return { key: secrets.decrypt(row!.key_sealed), url: row!.account_url };
  }

  async function open(): Promise<AcmeAccount> {
    const { key, url } = await keyOf();
    const acme = await acmeClient();
    const client = new acme.Client({
      directoryUrl,
      accountKey: key,
      accountUrl: url ?? undefined,
      // Poll soon and often: a validation usually takes a second or two.
      backoffAttempts: 12,
      backoffMin: 250,
      backoffMax: 5000,
    });
    if (!url) {
      await client.createAccount({ termsOfServiceAgreed: true, contact: email ? [`mailto:${email}`] : undefined });
      await store
        .updateTable('acme_account')
        .set({ account_url: client.getAccountUrl() })
        .where('directory_url', '=', directoryUrl)
        .execute();
    }
    return { client, directoryUrl };
  }

  return {
    directoryUrl,
    /** The registered account, opened once per runtime; a failure is retried on the next call. */
    account(): Promise<AcmeAccount> {
      ready ??= open().catch((error) => {
        ready = null;
        throw error;
      });
      return ready;
    },
  };
}

export type AcmeAccounts = ReturnType<typeof acmeAccounts>;
