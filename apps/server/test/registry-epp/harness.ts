import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RegistryOptions, startRegistry, type TestRegistry } from '../../../registry/src/server.ts';
import { createEppRegistry } from '../../src/drivers/registry/epp/driver.ts';
import { eppSettings } from '../../src/drivers/registry/epp/options.ts';
import type { ContactData, RegistryDriver } from '../../src/drivers/registry/interface.ts';
import type { Store } from '../../src/store/db.ts';
import { createAccount } from '../fixtures.ts';
import { leafCertificate } from '../sites/certs.ts';
import { openTestStore, type StoreKind } from '../stores.ts';

export const CLIENT_ID = 'registrar-a';
export const PASSWORD = 'secret-a1';

/** Certificates made with openssl at test time: the registry's for localhost, the registrar's, both under one test CA, as files. */
export function certificateFiles() {
  const server = leafCertificate(['localhost']);
  const client = leafCertificate([CLIENT_ID]);
  const dir = mkdtempSync(path.join(tmpdir(), 'epp-driver-certs-'));
  const file = (name: string, pem: string) => {
    writeFileSync(path.join(dir, name), pem);
    return path.join(dir, name);
  };
  return {
    server,
    ca: server.chain,
    certFile: file('client.crt', client.cert),
    keyFile: file('client.key', client.key),
    caFile: file('ca.crt', server.chain),
  };
}

export type Certs = ReturnType<typeof certificateFiles>;

export const startTestRegistry = (certs: Certs, options: Partial<RegistryOptions> = {}) =>
  startRegistry({ cert: certs.server.cert, key: certs.server.key, ca: certs.ca, clients: { [CLIENT_ID]: PASSWORD }, ...options });

/** The panel's `drivers.registry` on the epp driver against a started test registry, as one registrar account (ours by default). */
export const eppDriverConfig = (registry: { port: number }, certs: Certs, clientId = CLIENT_ID, password = PASSWORD) => ({
  driver: 'epp',
  host: 'localhost',
  port: registry.port,
  clientId,
  password,
  certFile: certs.certFile,
  keyFile: certs.keyFile,
  caFile: certs.caFile,
});

export interface DriverTest {
  store: Store;
  registry: TestRegistry;
  driver: RegistryDriver;
  /** The panel item ids of the test's domains by name. */
  items: Record<string, number>;
  /** Lines the driver logged. */
  logged: { level: string; details: Record<string, unknown>; message: string }[];
  close(): Promise<void>;
}

/** A store with a realm holding `domains`, a test registry on loopback, and the epp driver between them. */
export async function openDriverTest(
  kind: StoreKind,
  certs: Certs,
  domains: string[],
  options: Record<string, unknown> = {},
  registryOptions: Partial<RegistryOptions> = {},
  /** The rate limit's window, a minute unless a test shortens it. */
  rateWindowMs?: number,
): Promise<DriverTest> {
  const { store, cleanup } = await openTestStore(kind);
  const account = await createAccount(store, { users: {}, items: domains.map((reference) => ({ reference, domain: true })) });
  const registry = await startTestRegistry(certs, registryOptions);
  const logged: DriverTest['logged'] = [];
  const log = {
    debug: (details: Record<string, unknown>, message: string) => logged.push({ level: 'debug', details, message }),
    warn: (details: Record<string, unknown>, message: string) => logged.push({ level: 'warn', details, message }),
  };
  const driver = createEppRegistry(
    store,
    eppSettings({
      host: 'localhost',
      port: registry.port,
      clientId: CLIENT_ID,
      password: PASSWORD,
      certFile: certs.certFile,
      keyFile: certs.keyFile,
      caFile: certs.caFile,
      reconnectMs: 20,
      timeoutSeconds: 5,
      ...options,
    }),
    log,
    { rateWindowMs },
  );
  return {
    store,
    registry,
    driver,
    items: account.items,
    logged,
    async close() {
      await driver.close?.();
      await registry.close();
      await cleanup();
    },
  };
}

/** A contact every registry accepts (a Spanish person with an identity number), for the driver's tests and bench. */
export const SAMPLE_CONTACT: ContactData = {
  isOrg: false,
  orgName: '',
  firstName: 'Ana',
  lastName: 'Pérez',
  identNumber: '12345678Z',
  email: 'ana@example.es',
  phone: '+34.971123456',
  address: 'Carrer de Sant Miquel, 1',
  postalCode: '07002',
  city: 'Palma',
  cityKey: 'Palma',
  state: 'Illes Balears',
  stateKey: 'PM',
  country: 'ES',
};
