/**
 * A bulk renewal from the domain list (POST /domain/bulk/) against the test registry limited to N
 * commands a minute: the registry refuses (2502) any command over the limit, the epp driver is
 * configured with the same limit, and the panel's outbox worker applies the batch. What counts is
 * how close each full minute comes to the limit (the registry's own count of the commands it took)
 * while no command is refused and every domain ends renewed and billed once.
 *
 * Alone: `node bench/bulk.ts`; BENCH_BULK_DOMAINS (1,000), BENCH_BULK_PER_MINUTE (1,200) and
 * BENCH_BULK_CONCURRENCY (the outbox's `jobs.concurrency`, 8).
 */
import { CONTACT_TYPES, type ContactType } from '@atalaya/contract';
import { buildApp } from '../apps/server/src/app.ts';
import { SILENT } from '../apps/server/src/drivers/log.ts';
import { createEppRegistry } from '../apps/server/src/drivers/registry/epp/driver.ts';
import { eppSettings } from '../apps/server/src/drivers/registry/epp/options.ts';
import type { ContactData } from '../apps/server/src/drivers/registry/interface.ts';
import { createAccount, send } from '../apps/server/test/fixtures.ts';
import { CLIENT_ID, certificateFiles, PASSWORD, SAMPLE_CONTACT, startTestRegistry } from '../apps/server/test/registry-epp/harness.ts';
import { openTestStore } from '../apps/server/test/stores.ts';

const DOMAINS = Number(process.env.BENCH_BULK_DOMAINS ?? 1_000);
const PER_MINUTE = Number(process.env.BENCH_BULK_PER_MINUTE ?? 1_200);
/** Outbox jobs applied at once: enough to keep the registry's limit busy while each renewal waits for its answers. */
const CONCURRENCY = Number(process.env.BENCH_BULK_CONCURRENCY ?? 8);
const MINUTE = 60_000;

const contacts = Object.fromEntries(CONTACT_TYPES.map((type) => [type, SAMPLE_CONTACT])) as Record<ContactType, ContactData>;
const registration = {
  mode: 'setDNS' as const,
  nameServers: ['ns1.provider.example', 'ns2.provider.example'],
  authKind: 'authcode' as const,
  contacts,
};

export async function bulkScenario() {
  console.log(
    `Bulk renewal (${DOMAINS} domains, test registry limited to ${PER_MINUTE} commands a minute, ${CONCURRENCY} jobs at once, SQLite):`,
  );
  const certs = certificateFiles();
  const registry = await startTestRegistry(certs);
  const { certFile, keyFile, caFile } = certs;
  const options = { host: 'localhost', port: registry.port, clientId: CLIENT_ID, password: PASSWORD, certFile, keyFile, caFile };
  const { store, config, cleanup } = await openTestStore('sqlite', {
    'drivers.registry': { driver: 'epp', ...options, sessions: 4, commandsPerMinute: PER_MINUTE },
    'jobs.concurrency': CONCURRENCY,
  });
  const names = Array.from({ length: DOMAINS }, (_, i) => `bulk-${i}.com`);
  const account = await createAccount(store, { users: { w: 'all=write' }, items: names.map((reference) => ({ reference, domain: true })) });
  const ids = names.map((name) => account.items[name]);
  // Registered beforehand, outside the limit, by a driver of the same store.
  const setup = createEppRegistry(store, eppSettings({ ...options, sessions: 4 }), SILENT);
  await setup.create(ids[0], registration);
  for (let i = 1; i < ids.length; i += 20) await Promise.all(ids.slice(i, i + 20).map((id) => setup.create(id, registration)));
  await setup.close?.();

  // The registry's own count: each command it takes inside the limit, and each it refuses.
  const taken: number[] = [];
  let refused = 0;
  const limit = registry.rateLimit.bind(registry);
  registry.rateLimit = async (clID, rate) => {
    const over = await limit(clID, rate);
    if (over) refused++;
    else taken.push(performance.now());
    return over;
  };
  registry.setFaults({ rateLimit: { commands: PER_MINUTE, perMs: MINUTE, mode: 'refuse' } });
  const app = await buildApp({ config, store });
  try {
    const headers = await account.as('w');
    const started = performance.now();
    const res = await send(app, 'POST', '/domain/bulk/', headers, { action: 'renew', years: '1', ids });
    if (res.status !== 200) throw new Error(`bulk answered ${res.status}: ${JSON.stringify(res.body.system)}`);
    const answered = performance.now() - started;
    let view = res.body.data;
    let lastLine = 0;
    while (view.counts.queued > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      view = (await send(app, 'GET', `/domain/bulk/${view.id}/`, headers)).body.data;
      if (performance.now() - lastLine > 30_000) {
        lastLine = performance.now();
        console.log(`    ${((lastLine - started) / 1000).toFixed(0)} s: ${view.counts.done} done, ${view.counts.queued} queued`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const first = taken.find((t) => t >= started) ?? started;
    const windows: number[] = [];
    for (let from = first; from + MINUTE <= taken.at(-1)!; from += MINUTE)
      windows.push(taken.filter((t) => t >= from && t < from + MINUTE).length);
    const commands = taken.filter((t) => t >= started).length;
    const billed = await store.selectFrom('billing_event').select('id').where('action', '=', 'renew').execute();
    console.log(
      `  the call answered in ${(answered / 1000).toFixed(1)} s; the batch ended in ${seconds.toFixed(1)} s: ${view.counts.done} done, ${view.counts.failed} failed`,
    );
    console.log(
      `  ${commands} commands (${(commands / view.counts.done).toFixed(1)} a renewal), ${refused} refused by the registry; ` +
        `full minutes: ${windows.map((w) => `${w} (${((w / PER_MINUTE) * 100).toFixed(1)} %)`).join(', ') || 'none'}`,
    );
    console.log(
      `  ${billed.length} renewals billed (${new Set(billed.map((b) => b.id)).size} distinct), ${((view.counts.done / seconds) * 60).toFixed(0)} renewals a minute`,
    );
  } finally {
    await app.close();
    await cleanup();
    await registry.close();
  }
}

if (import.meta.main) await bulkScenario();
