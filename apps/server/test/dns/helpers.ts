import type { DnsRecord } from '@atalaya/contract';
import { createAccount, type Reply, registerDomains, send } from '../fixtures.ts';
import { openTestApp, type TestContext } from '../stores.ts';
import { type PowerDns, startPowerDns } from './powerdns-harness.ts';

export interface DnsTest {
  ctx: TestContext;
  id: number;
  w: Record<string, string>;
  r: Record<string, string>;
  /** Calls the API as the writer (or the given headers) and returns status and envelope. */
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  post(path: string, body: Record<string, string | number>, headers?: Record<string, string>): Promise<Reply>;
  create(body: Record<string, string | number>): Promise<Reply>;
  list(): Promise<DnsRecord[]>;
}

export type { Reply };

/** A realm with the item zona.es (domain + normal hosting), writer `w` and reader `r`. */
export async function openDnsTest(
  kind: 'sqlite' | 'postgres',
  overrides: Record<string, unknown> = {},
  reference = 'zona.es',
): Promise<DnsTest> {
  const ctx = await openTestApp(kind, overrides);
  const account = await createAccount(ctx.store, {
    users: { w: 'all=write', r: 'all=read' },
    items: [{ reference, domain: true, service: 'normal' }],
  });
  await registerDomains(ctx.app, account);
  const w = await account.as('w');
  const r = await account.as('r');
  const id = account.items[reference];
  const t: DnsTest = {
    ctx,
    id,
    w,
    r,
    get: (path, headers = w) => send(ctx.app, 'GET', `/service/${id}/dns/${path}`, headers),
    post: (path, body, headers = w) => send(ctx.app, 'POST', `/service/${id}/dns/${path}`, headers, body),
    create: (body) => t.post('create/', body),
    async list() {
      return (await t.get('list/')).body.data.dnss as DnsRecord[];
    },
  };
  return t;
}

/** The field a refusal names, and its status. */
export const refusal = (reply: Reply) => ({ status: reply.status, inputs: reply.body.system.inputs });

/** A real PowerDNS on loopback and a DNS test app on SQLite whose driver points at it. */
export interface PowerDnsTest {
  pdns: PowerDns;
  t: DnsTest;
}

export async function openPowerDnsTest(): Promise<PowerDnsTest> {
  const pdns = await startPowerDns();
  return { pdns, t: await openDnsTest('sqlite', { 'drivers.dns': pdns.driverConfig }) };
}

/** Closes what `openPowerDnsTest` opened, whatever part of it started. */
export async function closePowerDnsTest({ pdns, t }: Partial<PowerDnsTest>) {
  await t?.ctx.close();
  await pdns?.stop();
}

/** The zone's next DNSSEC step falls due now (its wait, a TTL, has passed); the schedule takes it and its jobs are applied. */
export async function dnssecStepNow(t: DnsTest) {
  await t.ctx.store
    .updateTable('dns_zone')
    .set({ dnssec_due_at: Math.floor(Date.now() / 1000) - 1 })
    .where('item_id', '=', t.id)
    .execute();
  await t.ctx.app.runtime.scheduler.runNow('dnssec-steps');
  await t.ctx.app.runtime.outbox.drain();
}
