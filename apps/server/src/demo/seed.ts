import { randomBytes } from 'node:crypto';
import { AREAS } from '@atalaya/contract';
import type { Runtime } from '../kernel/runtime.ts';
import { seedBackupsDemo } from '../modules/backups/demo.ts';
import { seedDomainDemo } from '../modules/domain/demo.ts';
import { createItem, createRealm, createUser, grant, type ItemSpec } from '../modules/provisioning/accounts.ts';
import { seedSampleErrorLogs, seedServiceDemo } from '../modules/service/demo.ts';
import { seedSitesDemo } from '../modules/sites/demo.ts';
import { now } from '../store/db.ts';

export const DEMO_REALM = 'example.com';
const DAY = 86400;

/** A realistic mix: domain-only, hosting with mail, parking, mail-only; some expired. */
const DEMO_ITEMS: Omit<ItemSpec, 'realm'>[] = [
  { reference: 'example.com', domain: true, service: 'normal', mail: true },
  { reference: 'tienda-ejemplo.es', domain: true, service: 'normal', mail: true },
  { reference: 'blog-ejemplo.com', domain: true, service: 'normal' },
  { reference: 'restaurante-sol.es', domain: true, service: 'parking' },
  { reference: 'mi-marca.cat', domain: true },
  { reference: 'reservas-hotel.net', domain: true, service: 'normal', mail: true, expireAt: -20 * DAY },
  { reference: 'antigua-web.org', domain: true, expireAt: -90 * DAY },
  { reference: 'correo-empresa.com', mail: true },
  { reference: 'aparcado.info', domain: true, service: 'parking', expireAt: -5 * DAY },
  { reference: 'consultora-ejemplo.eu', domain: true, service: 'normal', mail: true, expireAt: 20 * DAY },
  { reference: 'academia-ejemplo.es', domain: true, mail: true },
  { reference: 'fotografia-ejemplo.com', service: 'normal' },
  { reference: 'ejemplo-ñandú.es', domain: true },
  { reference: 'clinica-ejemplo.es', domain: true, service: 'normal', mail: true, expireAt: 400 * DAY },
];

export interface DemoAccount {
  realm: string;
  password: string;
  generated: boolean;
}

/** The demo realm and its items; backend state follows through the outbox like any customer change. */
export async function seedDemo(runtime: Runtime, password: string): Promise<void> {
  const { store } = runtime;
  await createRealm(store, DEMO_REALM);
  await createUser(store, DEMO_REALM, 'demo', password);
  await createUser(store, DEMO_REALM, 'viewer', password);
  const t = now();
  for (const spec of DEMO_ITEMS) {
    const expireAt = spec.expireAt === undefined ? undefined : t + spec.expireAt;
    const item = await createItem(store, { ...spec, realm: DEMO_REALM, expireAt });
    await grant(store, DEMO_REALM, 'demo', item.reference, { ...allAreas('write') });
    await grant(store, DEMO_REALM, 'viewer', item.reference, { ...allAreas('read') });
  }
  await seedDomainDemo(runtime, DEMO_REALM);
  await seedSitesDemo(store, DEMO_REALM);
  await seedServiceDemo(runtime, DEMO_REALM);
  // Applied now, so the panel shows the demo's backend state from its first page.
  await runtime.outbox.drain();
  await seedSampleErrorLogs(runtime, DEMO_REALM);
  await seedBackupsDemo(runtime, DEMO_REALM);
}

const allAreas = (level: 'read' | 'write') => Object.fromEntries(AREAS.map((area) => [area, level]));

/** On first start with an empty store, seeds the demo; answers how to sign in, or null. */
export async function seedDemoIfEmpty(runtime: Runtime): Promise<DemoAccount | null> {
  const { store, config } = runtime;
  const any = await store.selectFrom('realm').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const generated = !config.demoPassword;
  const password = config.demoPassword ?? randomBytes(12).toString('base64url');
  await seedDemo(runtime, password);
  return { realm: DEMO_REALM, password, generated };
}
