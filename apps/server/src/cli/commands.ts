import { randomBytes } from 'node:crypto';
import { AccountError } from '../modules/provisioning/account-error.ts';
import type { Command, Values } from './command.ts';
import { NODE_COMMANDS } from './nodes.ts';

/*
 * Each command imports its own modules when it runs (decision 056): `npm run admin -- <command>`
 * loads the runtime and that command's code, not every command's (`help` loads neither), so one
 * command starts in about two thirds of the time it took with all of them loaded.
 */
const accounts = () => import('../modules/provisioning/accounts.ts');

const passwordOption = { password: { type: 'string' } } as const;
const newPassword = (values: Values) => {
  if (typeof values.password === 'string') return { password: values.password, shown: false };
  return { password: randomBytes(12).toString('base64url'), shown: true };
};

function wholeNumber(values: Values, key: string): number | undefined {
  const raw = values[key];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new AccountError(`--${key} must be a whole number`);
  return Number(raw);
}

function expiry(values: Values): number | undefined {
  if (values.expires === undefined) return undefined;
  const time = Date.parse(`${values.expires}T00:00:00Z`);
  if (typeof values.expires !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(values.expires) || Number.isNaN(time)) {
    throw new AccountError('--expires must be a date as YYYY-MM-DD');
  }
  return time / 1000;
}

const MB = 1024 * 1024;
const iso = (seconds: number | null) => (seconds === null ? '-' : new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' '));

export const COMMANDS: Record<string, Command> = {
  ...NODE_COMMANDS,
  'realm-create': {
    args: ['domain-name'],
    help: 'Creates a realm: the domain name its users type to sign in.',
    activity: { realm: 0 },
    run: async ({ store }, [name]) => {
      const { createRealm } = await accounts();
      console.log(`Realm ${(await createRealm(store, name)).name} created`);
    },
  },
  'realm-list': {
    args: [],
    help: 'Lists the realms.',
    run: async ({ store }) => {
      const realms = await store.selectFrom('realm').select(['id', 'name', 'disabled']).orderBy('name').execute();
      for (const r of realms) console.log(`${r.id}\t${r.name}${r.disabled ? '\t(disabled)' : ''}`);
    },
  },
  'realm-disable': {
    args: ['domain-name'],
    help: 'Disables a realm: none of its users can sign in.',
    activity: { realm: 0 },
    options: { enable: { type: 'boolean' } },
    run: async ({ store }, [realm], values) => {
      const { setDisabled } = await accounts();
      await setDisabled(store, { realm }, !values.enable);
      console.log(`Realm ${realm} ${values.enable ? 'enabled' : 'disabled'}`);
    },
  },
  'user-create': {
    args: ['realm', 'username'],
    help: 'Creates a user; --password P, else one is generated and printed.',
    activity: { realm: 0 },
    options: passwordOption,
    run: async ({ store }, [realm, username], values) => {
      const { createUser } = await accounts();
      const { password, shown } = newPassword(values);
      await createUser(store, realm, username, password);
      console.log(`User ${username}@${realm} created${shown ? `; password: ${password}` : ''}`);
    },
  },
  'user-list': {
    args: ['realm'],
    help: 'Lists the users of a realm.',
    run: async ({ store }, [realmName]) => {
      const { findRealm } = await accounts();
      const realm = await findRealm(store, realmName);
      const users = await store
        .selectFrom('user')
        .select(['id', 'username', 'disabled', 'last_login_at'])
        .where('realm_id', '=', realm.id)
        .orderBy('username')
        .execute();
      for (const u of users) {
        const last = u.last_login_at ? new Date(u.last_login_at * 1000).toISOString() : 'never';
        console.log(`${u.id}\t${u.username}\tlast sign-in ${last}${u.disabled ? '\t(disabled)' : ''}`);
      }
    },
  },
  'user-disable': {
    args: ['realm', 'username'],
    help: 'Disables a user and ends their sessions (--enable to undo).',
    activity: { realm: 0 },
    options: { enable: { type: 'boolean' } },
    run: async ({ store }, [realm, username], values) => {
      const { setDisabled } = await accounts();
      await setDisabled(store, { realm, username }, !values.enable);
      console.log(`User ${username}@${realm} ${values.enable ? 'enabled' : 'disabled'}`);
    },
  },
  'user-password': {
    args: ['realm', 'username'],
    help: "Resets a user's password (--password P, else generated) and ends their sessions.",
    activity: { realm: 0 },
    options: passwordOption,
    run: async ({ store }, [realm, username], values) => {
      const { resetPassword } = await accounts();
      const { password, shown } = newPassword(values);
      await resetPassword(store, realm, username, password);
      console.log(`Password of ${username}@${realm} reset${shown ? `; new password: ${password}` : ''}`);
    },
  },
  'realm-require-2fa': {
    args: ['realm', 'on|off'],
    activity: { realm: 0 },
    help: 'Requires a second factor of the users of a realm (on) or not (off); a user without one is led to enrol it after signing in.',
    run: async ({ store }, [realmName, state]) => {
      const { findRealm } = await accounts();
      if (state !== 'on' && state !== 'off') throw new AccountError('the second argument must be on or off');
      const realm = await findRealm(store, realmName);
      await store
        .updateTable('realm')
        .set({ require_second_factor: state === 'on' ? 1 : 0 })
        .where('id', '=', realm.id)
        .execute();
      console.log(`Realm ${realm.name}: second factor ${state === 'on' ? 'required' : 'not required'}`);
    },
  },
  'user-2fa-reset': {
    args: ['realm', 'username'],
    help: "Removes a user's second factors and recovery codes and ends their sessions (audited), e.g. after a lost phone.",
    run: async ({ store }, [realm, username]) => {
      const [{ findUser }, { resetFactors }] = await Promise.all([accounts(), import('../modules/factors/reset.ts')]);
      const user = await findUser(store, realm, username);
      const removed = await resetFactors(store, { id: user.id, realmId: user.realm_id });
      console.log(`User ${username}@${realm}: ${removed} second factor(s) removed`);
    },
  },
  'item-create': {
    args: ['realm', 'reference'],
    help: 'Creates an item: --domain, --service normal|parking, --mail (any mix), --expires YYYY-MM-DD, --node <name> (else the least loaded node with the role, when there are nodes); --transfer-in: a domain held at another registrar, which a domain writer moves here with its auth code; --register: registers the domain at its registry for a year (queued, billed in the ledger; without it the domain reads as not registered until a domain writer registers it).',
    activity: { realm: 0, reference: 1 },
    options: {
      domain: { type: 'boolean' },
      service: { type: 'string' },
      mail: { type: 'boolean' },
      expires: { type: 'string' },
      node: { type: 'string' },
      'transfer-in': { type: 'boolean' },
      register: { type: 'boolean' },
    },
    run: async (runtime, [realm, reference], values) => {
      const { store } = runtime;
      const { createItem } = await accounts();
      if (values['transfer-in'] && !values.domain) throw new AccountError('--transfer-in needs --domain');
      if (values.register && (!values.domain || values['transfer-in']))
        throw new AccountError('--register needs --domain, without --transfer-in');
      if (values.register && values.expires) throw new AccountError('--register registers for a year from today: leave out --expires');
      if (values.service !== undefined && values.service !== 'normal' && values.service !== 'parking') {
        throw new AccountError('--service must be normal or parking (redirect-and-parking)');
      }
      const item = await createItem(store, {
        realm,
        reference,
        domain: Boolean(values.domain),
        service: values.service as 'normal' | 'parking' | undefined,
        mail: Boolean(values.mail),
        expireAt: expiry(values),
        node: typeof values.node === 'string' ? values.node : undefined,
        transferIn: Boolean(values['transfer-in']),
      });
      // A purchase at the registry, so only when asked for (decision 051): queued, applied by the panel's worker and billed then.
      const change = values.register
        ? await (await import('../modules/domain/register.ts')).queueRegistration(
            runtime,
            { itemId: item.id, name: item.reference, realm },
            { actor: 'cli', userId: null },
          )
        : null;
      const after = values['transfer-in'] ? ', waiting for its transfer in' : change ? `, its registration queued (change ${change})` : '';
      console.log(`Item ${item.id} ${item.reference} created${after}`);
    },
  },
  'item-list': {
    args: ['realm'],
    help: 'Lists the items of a realm.',
    run: async ({ store }, [realmName]) => {
      const { findRealm } = await accounts();
      const realm = await findRealm(store, realmName);
      const items = await store
        .selectFrom('item')
        .leftJoin('domain', 'domain.item_id', 'item.id')
        .leftJoin('service', 'service.item_id', 'item.id')
        .leftJoin('mail_service', 'mail_service.item_id', 'item.id')
        .select(['item.id', 'item.reference', 'domain.name as domain', 'service.kind as service', 'mail_service.item_id as mail'])
        .where('item.realm_id', '=', realm.id)
        .orderBy('item.reference')
        .execute();
      for (const i of items) {
        const parts = [i.domain && 'domain', i.service && `service:${i.service}`, i.mail && 'mail'].filter(Boolean);
        console.log(`${i.id}\t${i.reference}\t${parts.join(' ')}`);
      }
    },
  },
  'service-limits': {
    args: ['realm', 'reference'],
    help: 'Sets hosting limits: --web MB, --traffic MB, --databases N, --db-space MB.',
    activity: { realm: 0, reference: 1, area: 'service' },
    options: { web: { type: 'string' }, traffic: { type: 'string' }, databases: { type: 'string' }, 'db-space': { type: 'string' } },
    run: async ({ store }, [realm, reference], values) => {
      const { setServiceLimits } = await accounts();
      const mb = (key: string) => {
        const n = wholeNumber(values, key);
        return n === undefined ? undefined : n * MB;
      };
      const limits = {
        spaceWeb: mb('web'),
        traffic: mb('traffic'),
        databases: wholeNumber(values, 'databases'),
        spaceDatabases: mb('db-space'),
      };
      if (Object.values(limits).every((v) => v === undefined))
        throw new AccountError('Give at least one of --web, --traffic, --databases, --db-space');
      await setServiceLimits(store, realm, reference, limits);
      console.log(`Limits of ${reference} set`);
    },
  },
  grant: {
    args: ['realm', 'username', 'reference', 'areas'],
    help: 'Grants levels on an item: areas as all=write or domain=read,service_ftp=write (levels: disabled, read, write).',
    activity: { realm: 0, reference: 2 },
    run: async ({ store }, [realm, username, reference, areas]) => {
      const { grant, parsePermissionMap } = await accounts();
      await grant(store, realm, username, reference, parsePermissionMap(areas));
      console.log(`Permissions of ${username} on ${reference} set`);
    },
  },
  'token-create': {
    args: ['realm', 'username'],
    activity: { realm: 0 },
    help: "Creates an API token and prints it once: --name N --scope all=read,service_dnszone=write [--items ref,…] [--expires YYYY-MM-DD] [--cidr 192.0.2.0/24,…]; never above the user's own levels.",
    options: {
      name: { type: 'string' },
      scope: { type: 'string' },
      items: { type: 'string' },
      expires: { type: 'string' },
      cidr: { type: 'string' },
    },
    run: async ({ store }, [realm, username], values) => {
      const { createTokenFor } = await import('./tokens.ts');
      const { token, id } = await createTokenFor(store, realm, username, values as Record<string, string | undefined>);
      console.log(`Token ${id} of ${username}@${realm} created; it is shown only now:\n${token}`);
    },
  },
  'token-list': {
    args: ['realm', 'username?'],
    help: "Lists the API tokens of a realm's users (or of one user): id, user, name, scope, items, address ranges, expiry, last use.",
    run: async ({ store }, [realm, username]) => {
      const { tokenLines } = await import('./tokens.ts');
      const lines = await tokenLines(store, realm, username);
      console.log(lines.length ? lines.join('\n') : 'No tokens');
    },
  },
  'token-revoke': {
    args: ['realm', 'username', 'id'],
    activity: { realm: 0 },
    help: 'Revokes an API token: it stops working on its next call.',
    run: async ({ store }, [realm, username, id]) => {
      const { revokeTokenOf } = await import('./tokens.ts');
      await revokeTokenOf(store, realm, username, id);
      console.log(`Token ${id} of ${username}@${realm} revoked`);
    },
  },
  'operator-token-create': {
    args: [],
    activity: {},
    help: 'Creates an operator token for a billing system and prints it once: --name N --scope provision,domains,webhooks [--cidr 192.0.2.0/24,…] [--expires YYYY-MM-DD]; it reaches only the operator calls (docs/operator-api.md).',
    options: { name: { type: 'string' }, scope: { type: 'string' }, expires: { type: 'string' }, cidr: { type: 'string' } },
    run: async ({ store }, _args, values) => {
      const { createOperatorTokenFrom } = await import('../modules/operator/cli.ts');
      const { token, id } = await createOperatorTokenFrom(store, values as Record<string, string | undefined>);
      console.log(`Operator token ${id} created; it is shown only now:\n${token}`);
    },
  },
  'operator-tokens': {
    args: [],
    help: 'Lists the operator tokens: id, name, scopes, address ranges, expiry, last use.',
    run: async ({ store }) => {
      const { operatorTokenLines } = await import('../modules/operator/cli.ts');
      const lines = await operatorTokenLines(store);
      console.log(lines.length ? lines.join('\n') : 'No operator tokens');
    },
  },
  'operator-token-revoke': {
    args: ['id'],
    activity: {},
    help: 'Revokes an operator token: it stops working on its next call.',
    run: async ({ store }, [id]) => {
      const { revokeOperatorTokenOf } = await import('../modules/operator/cli.ts');
      await revokeOperatorTokenOf(store, id);
      console.log(`Operator token ${id} revoked`);
    },
  },
  'webhook-create': {
    args: ['url'],
    activity: {},
    help: 'Registers a webhook endpoint for billing events and prints its signing secret once: --events service.suspended,service.unsuspended,job.failed.',
    options: { events: { type: 'string' } },
    run: async ({ store, secrets }, [url], values) => {
      const { createWebhookFrom } = await import('../modules/operator/cli.ts');
      const webhook = await createWebhookFrom(store, secrets, url, values.events as string | undefined);
      console.log(
        `Webhook ${webhook.id} created for ${webhook.events.join(',')}; its signing secret is shown only now:\n${webhook.secret}`,
      );
    },
  },
  webhooks: {
    args: ['resend?', 'id?'],
    activity: (args) => (args.length ? {} : undefined),
    help: 'Shows the webhook endpoints and the latest deliveries with every attempt (time, HTTP status, answer); `webhooks resend <delivery id>` sends one again.',
    run: async ({ store }, [action, id]) => {
      const [{ resendDelivery }, { webhookLines }] = await Promise.all([
        import('../modules/operator/webhooks.ts'),
        import('../modules/operator/cli.ts'),
      ]);
      if (action !== undefined) {
        if (action !== 'resend' || !id || !/^\d{1,9}$/.test(id))
          throw new AccountError('usage: webhooks, or webhooks resend <delivery id>');
        if (!(await resendDelivery(store, Number(id)))) throw new AccountError(`No webhook delivery ${id}`);
        console.log(`Delivery ${id} queued again`);
        return;
      }
      console.log((await webhookLines(store)).join('\n'));
    },
  },
  'zone-export': {
    args: ['realm', 'reference'],
    help: 'Prints the DNS zone of a hosting item in BIND format (named-checkzone accepts it).',
    run: async (runtime, [realm, reference]) => {
      const { zoneExportText } = await import('./dns.ts');
      process.stdout.write(await zoneExportText(runtime, realm, reference));
    },
  },
  reconcile: {
    args: [],
    help: "Compares the store with each configured real backend of the panel's machine (nginx, Dovecot, Pure-FTPd; what is placed on a node is skipped and counted) and each domain with the registry, and lists the differences; --repair fixes them.",
    activity: (_args, values) => (values.repair ? {} : undefined),
    options: { repair: { type: 'boolean' } },
    run: async (runtime, _args, values) => {
      const [{ reconcile, skippedLines }, { reconcileRegistry }] = await Promise.all([
        import('./reconcile.ts'),
        import('../modules/domain/reconcile.ts'),
      ]);
      const { store, config, secrets } = runtime;
      const repair = Boolean(values.repair);
      const backends = await reconcile(store, config, secrets, repair);
      const differences = [...backends.differences, ...(await reconcileRegistry(store, runtime.drivers.registry, repair))];
      // The registry's repairs are changes queued like a customer's: applied here, in order, now.
      if (repair) await runtime.outbox.drain();
      for (const d of differences) console.log(`${d.area}\t${d.problem}\t${d.subject}${d.outcome ? `\t${d.outcome}` : ''}`);
      for (const line of skippedLines(backends.skipped)) console.log(line);
      console.log(
        differences.length
          ? `${differences.length} difference(s)${values.repair ? '' : '; run with --repair to fix them'}`
          : 'No differences',
      );
      if (differences.some((d) => d.outcome?.startsWith('failed'))) process.exitCode = 1;
    },
  },
  'registry-messages': {
    args: [],
    help: "Lists the registry's poll messages the panel could not read (kept and acknowledged so the queue moves), oldest first, with their XML.",
    run: async ({ store }) => {
      const { listRegistryMessages } = await import('../modules/domain/messages.ts');
      const messages = await listRegistryMessages(store);
      for (const m of messages) console.log(`${m.message_id}\t${m.queued_at}\t${m.text}\n${m.xml}\n`);
      console.log(messages.length ? `${messages.length} message(s)` : 'No unread registry messages');
    },
  },
  jobs: {
    args: ['retry?', 'id?'],
    help: 'Lists the outbox jobs not done (pending, running, failed, with the last error); `jobs retry <id>` re-queues a failed one.',
    activity: (args) => (args.length ? {} : undefined),
    run: async ({ store }, [action, id]) => {
      const { listUnfinishedJobs, retryFailedJob } = await import('../outbox/queue.ts');
      if (action !== undefined) {
        if (action !== 'retry' || !id || !/^\d+$/.test(id)) throw new AccountError('usage: jobs, or jobs retry <id>');
        if (!(await retryFailedJob(store, Number(id)))) throw new AccountError(`job ${id} is not a failed job`);
        console.log(`Job ${id} queued again`);
        return;
      }
      const jobs = await listUnfinishedJobs(store);
      console.log('id\tstatus\tkind\titem\tattempts\twhen\tlast error');
      for (const j of jobs) {
        const when =
          j.status === 'running'
            ? `lease until ${iso(j.lease_until)}`
            : j.status === 'pending'
              ? `due ${iso(j.next_at)}`
              : `at ${iso(j.updated_at)}`;
        console.log([j.id, j.status, j.kind, j.item_id ?? '-', j.attempts, when, (j.last_error ?? '').replace(/\s+/g, ' ')].join('\t'));
      }
      const count = (status: string) => jobs.filter((j) => j.status === status).length;
      console.log(`${count('pending')} pending, ${count('running')} running, ${count('failed')} failed`);
    },
  },
  audit: {
    args: [],
    help: 'Prints the activity log as JSON lines, oldest first: --realm R for one realm, --since YYYY-MM-DD from that day on (UTC).',
    options: { realm: { type: 'string' }, since: { type: 'string' } },
    run: async ({ store }, _args, values) => {
      const { printAudit } = await import('./activity.ts');
      await printAudit(store, values, (line) => console.log(line));
    },
  },
  'billing-events': {
    args: [],
    help: 'Prints the billing ledger (renewals, restores, transfers in) as JSON lines, oldest first: --since YYYY-MM-DD from that day on (UTC).',
    options: { since: { type: 'string' } },
    run: async ({ store }, _args, values) => {
      const [{ billingEventsSince }, { sinceDay }] = await Promise.all([import('../modules/domain/billing.ts'), import('./activity.ts')]);
      for (const event of await billingEventsSince(store, sinceDay(values.since) ?? 0)) console.log(JSON.stringify(event));
    },
  },
  backup: {
    args: ['file'],
    help: 'Copies the live SQLite store to a new file, consistent while servers run (PostgreSQL: use pg_dump).',
    run: async ({ config }, [file]) => {
      const { backupSqlite } = await import('./backup.ts');
      const pages = await backupSqlite(config, file);
      console.log(`Store copied to ${file} (${pages} pages)`);
    },
  },
  'backup-key': {
    args: ['realm'],
    help: "Prints the realm's backup repository and its key, and the environment restic needs: a restore with restic alone (docs/backups.md).",
    // A credential disclosed is recorded like a change (which realm's, never the key).
    activity: { realm: 0 },
    run: async (runtime, [realm]) => {
      const { backupKeyLines } = await import('./backups.ts');
      console.log((await backupKeyLines(runtime, realm)).join('\n'));
    },
  },
  backups: {
    args: [],
    help: 'With --failed: lists the backups that failed for good (realm, service, time, reason, error), newest first.',
    options: { failed: { type: 'boolean' } },
    run: async ({ store }, _args, values) => {
      if (!values.failed) throw new AccountError('say what to list: backups --failed');
      const { failedBackupLines } = await import('./backups.ts');
      console.log((await failedBackupLines(store)).join('\n'));
    },
  },
  'seed-realm': {
    args: ['domain-name', 'username'],
    help: "Creates a realm of --items N items (default 10000) mixing domains, hosting and mail, in one transaction, and a user with write on all of them: for benches and tests of the paged lists. --mail-keys also queues every mail domain's DKIM keys, as item-create does.",
    options: { items: { type: 'string' }, 'mail-keys': { type: 'boolean' }, ...passwordOption },
    run: async ({ store }, [realm, username], values) => {
      const { seedBulkRealm } = await import('../modules/provisioning/bulk.ts');
      const { password, shown } = newPassword(values);
      const items = wholeNumber(values, 'items') ?? 10_000;
      const started = performance.now();
      await seedBulkRealm(store, { realm, username, password, items, mailKeys: values['mail-keys'] === true });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`Realm ${realm} seeded with ${items} items in ${seconds} s${shown ? `; user ${username}, password ${password}` : ''}`);
    },
  },
  'seed-demo': {
    args: [],
    help: 'Seeds the demo realm example.com (users demo and viewer) into an empty store.',
    run: async () => {},
  },
};

export function usage() {
  const shown = (a: string) => (a.endsWith('?') ? `[${a.slice(0, -1)}]` : `<${a}>`);
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${[name, ...c.args.map(shown)].join(' ')}\n      ${c.help}`);
  return `Usage: npm run admin -- <command> [arguments] [--options]\n\nCommands:\n${lines.join('\n')}`;
}
