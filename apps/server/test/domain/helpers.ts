import type { TestRegistry } from '../../../registry/src/server.ts';
import type { Outbox } from '../../src/outbox/outbox.ts';
import { type Account, createAccount, type Fields, type Reply, registerDomains, send } from '../fixtures.ts';
import { type Certs, CLIENT_ID, certificateFiles, eppDriverConfig, PASSWORD, startTestRegistry } from '../registry-epp/harness.ts';
import { describeStores, openTestApp, type StoreKind, type TestContext } from '../stores.ts';

/** The registry driver a domain suite runs on: the panel's own, or EPP against the test registry over TLS. */
export type RegistryKind = 'local' | 'epp';

/** A domain suite on every store and both registry drivers; `%s` stands for the store. */
export function describeRegistries(name: string, body: (kind: StoreKind, registry: RegistryKind) => void) {
  for (const registry of ['local', 'epp'] as const) describeStores(`${name} (${registry} registry)`, (kind) => body(kind, registry));
}

let certs: Certs | undefined;

/** The other registrar account of the test registry. */
export const OTHER_CLIENT = 'registrar-b';

/** The app's `drivers.registry` for the suite's driver, with the test registry it talks to. */
async function registryFor(
  registry: RegistryKind,
  otherClients: Record<string, string> = {},
): Promise<{ overrides: Record<string, unknown>; server?: TestRegistry }> {
  if (registry === 'local') return { overrides: {} };
  certs ??= certificateFiles();
  // The second registrar account: the one that holds a domain before its transfer in, or asks for one of ours.
  const server = await startTestRegistry(certs, { clients: { [CLIENT_ID]: PASSWORD, [OTHER_CLIENT]: 'secret-b1', ...otherClients } });
  return {
    server,
    overrides: {
      'drivers.registry': eppDriverConfig(server, certs),
    },
  };
}

export type { Fields };

export interface DomainTest {
  ctx: TestContext;
  account: Account;
  /** A second realm, whose items the first realm's users must never reach. */
  other: Account;
  /** A call, then the outbox drained: the registry has answered the change it queued. */
  get(url: string, user?: string | null): Promise<Reply>;
  post(url: string, fields: Fields, user?: string | null): Promise<Reply>;
  /** A call whose queued registry change is left in the outbox (drain() applies it). */
  getQueued(url: string, user?: string | null): Promise<Reply>;
  postQueued(url: string, fields: Fields, user?: string | null): Promise<Reply>;
  drain(): Promise<void>;
  id(reference: string): number;
  /** The test registry an epp suite runs against; none on the local driver. */
  registry?: TestRegistry;
  close(): Promise<void>;
}

/**
 * An app with a realm holding x.es (domain + hosting), y.com (domain only), z.eu (domain only)
 * and m.com (mail only); users w (write all), r (read all), d (domain only, read), n (write all but
 * the name servers, which it reads).
 */
export async function openDomainTest(
  kind: StoreKind,
  registry: RegistryKind = 'local',
  /** More items of the first realm, e.g. domains created for a transfer in. */
  extra: { reference: string; domain?: boolean; service?: 'normal'; transferIn?: boolean; unregistered?: boolean }[] = [],
  /** More registrar accounts at the test registry (client id: password). */
  otherClients: Record<string, string> = {},
  /** Configuration of the app's own, e.g. `jobs.waitSeconds`. */
  config: Record<string, unknown> = {},
): Promise<DomainTest> {
  const { overrides, server } = await registryFor(registry, otherClients);
  const ctx = await openTestApp(kind, { ...overrides, ...config });
  const account = await createAccount(ctx.store, {
    users: { w: 'all=write', r: 'all=read', d: 'domain=read', n: 'all=write,domain_dns=read' },
    items: [
      { reference: 'x.es', domain: true, service: 'normal' },
      { reference: 'y.com', domain: true },
      { reference: 'z.eu', domain: true },
      { reference: 'm.com', mail: true },
      ...extra.map(({ unregistered, ...item }) => item),
    ],
  });
  const other = await createAccount(ctx.store, { users: { o: 'all=write' }, items: [{ reference: 'other.com', domain: true }] });
  // Registered as the operator does (decision 051), but for the extra items a test wants the registry not to have.
  const unregistered = new Set(extra.filter((item) => item.unregistered).map((item) => item.reference));
  await registerDomains(ctx.app, account, (reference) => !unregistered.has(reference));
  await registerDomains(ctx.app, other);
  const drain = () => ctx.app.runtime.outbox.drain();
  const settled = (call: Promise<Reply>) => whileApplying(ctx.app.runtime.outbox, call);
  const headers = new Map<string, Record<string, string>>();
  const as = async (user: string | null | undefined) => {
    if (user === null) return { 'x-dd-request': '1' };
    const name = user ?? 'w';
    if (!headers.has(name)) headers.set(name, await account.as(name));
    return headers.get(name)!;
  };
  return {
    ctx,
    account,
    other,
    get: async (url, user) => settled(send(ctx.app, 'GET', url, await as(user))),
    post: async (url, fields, user) => settled(send(ctx.app, 'POST', url, await as(user), fields)),
    getQueued: async (url, user) => send(ctx.app, 'GET', url, await as(user)),
    postQueued: async (url, fields, user) => send(ctx.app, 'POST', url, await as(user), fields),
    drain,
    id: (reference) => account.items[reference] ?? other.items[reference],
    registry: server,
    close: async () => {
      await ctx.close();
      await server?.close();
    },
  };
}

/**
 * A call with the outbox applied meanwhile, as the server's worker would (the test apps run none):
 * a call that waits for its registry change (a renewal, a restore, a new auth code) sees it
 * applied; then whatever the call queued is applied too.
 */
export async function whileApplying<T>(outbox: Outbox, call: Promise<T>): Promise<T> {
  let answered = false;
  const answer = call.finally(() => {
    answered = true;
  });
  while (!answered) {
    await outbox.drain();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await outbox.drain();
  return answer;
}

/** The field names and messages of a refused answer, paired. */
export const fieldErrors = (body: { system: { inputs: string[]; errors: string[] } }) =>
  Object.fromEntries(body.system.inputs.map((input, i) => [input, body.system.errors[i]]));

/** A domain registered at the test registry by another registrar account, with a registrant and name servers of its own. */
export function holdAtRegistry(registry: TestRegistry, name: string, clID: string, authInfo: string) {
  const at = new Date().toISOString();
  const data = registry.state.data;
  const owner = `B${name.replace(/\W/g, '').toUpperCase()}`.slice(0, 16);
  data.contacts[owner] = {
    id: owner,
    roid: registry.state.roid('C'),
    statuses: [],
    clID,
    crID: clID,
    crDate: at,
    postalInfo: [{ type: 'loc', name: 'Berta Otero', street: ['Rúa Nova 1'], city: 'Lugo', pc: '27001', cc: 'ES' }],
    voice: { number: '+34.982000000' },
    email: 'berta@example.net',
    authInfo: 'contact-code-1',
    hidden: [],
  };
  data.domains[name] = {
    name,
    roid: registry.state.roid('D'),
    statuses: [],
    clID,
    crID: clID,
    crDate: at,
    registrant: owner,
    contacts: ['admin', 'tech', 'billing'].map((type) => ({ type, id: owner })),
    hostObjs: ['ns1.elsewhere.net', 'ns2.elsewhere.net'],
    hostAttrs: [],
    exDate: new Date(Date.now() + 200 * 86_400_000).toISOString(),
    authInfo,
    secDNS: { ds: [], keys: [] },
  };
  registry.state.save();
}
