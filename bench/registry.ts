/**
 * docs/decisions/038-registry-outbox.md: the registry path's speed, against the test registry of
 * decision 031 over TLS on loopback, in this process (SQLite store):
 * - commands per second with 1 and 4 EPP sessions (`domain:info`, as many in flight as sessions);
 * - a name-server change from the API call to the registry's answer (the call, then the outbox
 *   applying its job), p50 and p99;
 * - reconcile (`npm run admin -- reconcile`'s registry part) over N registered domains.
 *
 * Alone: `node bench/registry.ts`; counts from BENCH_REGISTRY_COMMANDS (2,000),
 * BENCH_REGISTRY_CHANGES (200) and BENCH_REGISTRY_DOMAINS (1,000).
 */
import { CONTACT_TYPES, type ContactType } from '@atalaya/contract';
import type { ContactData } from '../apps/server/src/drivers/registry/interface.ts';
import { reconcileRegistry } from '../apps/server/src/modules/domain/reconcile.ts';
import { openDomainTest } from '../apps/server/test/domain/helpers.ts';
import { certificateFiles, openDriverTest, SAMPLE_CONTACT } from '../apps/server/test/registry-epp/harness.ts';

const COMMANDS = Number(process.env.BENCH_REGISTRY_COMMANDS ?? 2_000);
const CHANGES = Number(process.env.BENCH_REGISTRY_CHANGES ?? 200);
const DOMAINS = Number(process.env.BENCH_REGISTRY_DOMAINS ?? 1_000);

const contact = SAMPLE_CONTACT;
const contacts = Object.fromEntries(CONTACT_TYPES.map((type) => [type, contact])) as Record<ContactType, ContactData>;
const registration = {
  mode: 'setDNS' as const,
  nameServers: ['ns1.provider.example', 'ns2.provider.example'],
  authKind: 'authcode' as const,
  contacts,
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function commandsPerSecond(sessions: number) {
  const certs = certificateFiles();
  const t = await openDriverTest('sqlite', certs, ['bench.es'], { sessions });
  try {
    const id = t.items['bench.es'];
    await t.driver.create(id, registration);
    await t.driver.info(id); // sessions open
    let left = COMMANDS;
    const started = performance.now();
    const worker = async () => {
      while (left-- > 0) await t.driver.info(id);
    };
    await Promise.all(Array.from({ length: sessions * 2 }, worker));
    const seconds = (performance.now() - started) / 1000;
    // An info of a domain is one domain:info and one contact:info (its four roles share a contact).
    console.log(
      `  ${sessions} session(s): ${((COMMANDS * 2) / seconds).toFixed(0)} commands/s (${COMMANDS} domain reads in ${seconds.toFixed(1)} s)`,
    );
  } finally {
    await t.close();
  }
}

async function nameServerChange() {
  const t = await openDomainTest('sqlite', 'epp');
  try {
    const id = t.id('y.com');
    await t.get(`/domain/${id}/`);
    const times: number[] = [];
    for (let n = 0; n < CHANGES; n++) {
      const started = performance.now();
      const res = await t.postQueued(`/domain/${id}/dnsedit/`, { 'default-ns': '0', dns: [`ns1.n${n}.example`, `ns2.n${n}.example`] });
      if (res.status !== 200) throw new Error(`dnsedit answered ${res.status}`);
      await t.drain();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  name-server change, API call to the registry's answer: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (${CHANGES} changes)`,
    );
  } finally {
    await t.close();
  }
}

async function reconcileTime() {
  const certs = certificateFiles();
  const names = Array.from({ length: DOMAINS }, (_, i) => `bench-${i}.es`);
  const t = await openDriverTest('sqlite', certs, names, { sessions: 4 });
  try {
    const started = performance.now();
    // The first one creates the shared name-server hosts; the others find them.
    await t.driver.create(t.items[names[0]], registration);
    for (let i = 1; i < names.length; i += 20)
      await Promise.all(names.slice(i, i + 20).map((name) => t.driver.create(t.items[name], registration)));
    console.log(`  ${DOMAINS} domains registered in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const t0 = performance.now();
    const differences = await reconcileRegistry(t.store, t.driver, false);
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `  reconcile of ${DOMAINS} domains: ${seconds.toFixed(1)} s (${differences.length} differences, ${((seconds * 1000) / DOMAINS).toFixed(1)} ms per domain)`,
    );
  } finally {
    await t.close();
  }
}

export async function registryScenario() {
  console.log('Registry (test registry over TLS on loopback, SQLite):');
  await commandsPerSecond(1);
  await commandsPerSecond(4);
  await nameServerChange();
  await reconcileTime();
}

if (import.meta.main) await registryScenario();
