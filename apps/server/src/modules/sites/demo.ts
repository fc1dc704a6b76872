import { now, type Store } from '../../store/db.ts';
import { apexKey, enqueueApply, siteKey } from './state.ts';

interface DemoSite {
  name: string;
  folder: string;
  redirections?: [origin: string, kind: '301' | '302' | 'frame', target: string][];
}

/** Sites and redirections of the demo: a few per hosting service, and one on a parking domain. */
const DEMO: Record<string, DemoSite[]> = {
  'example.com': [
    {
      name: 'www',
      folder: 'public_html',
      redirections: [
        ['/antigua', '301', 'https://example.com/nueva'],
        ['/ofertas', '302', 'https://tienda-ejemplo.es/ofertas'],
      ],
    },
    { name: 'blog', folder: 'public_html/blog', redirections: [['/promo', 'frame', 'https://blog-ejemplo.com/']] },
    { name: 'intranet', folder: 'intranet' },
  ],
  'tienda-ejemplo.es': [{ name: 'www', folder: 'public_html' }],
  'restaurante-sol.es': [],
};
const PARKING_REDIRECTS: Record<string, string> = { 'restaurante-sol.es': 'https://example.com/' };

export async function seedSitesDemo(store: Store, realm: string) {
  const t = now();
  await store.transaction().execute(async (trx) => {
    for (const [reference, sites] of Object.entries(DEMO)) {
      const service = await trx
        .selectFrom('item')
        .innerJoin('realm', 'realm.id', 'item.realm_id')
        .innerJoin('service', 'service.item_id', 'item.id')
        .select(['item.id'])
        .where('realm.name', '=', realm)
        .where('item.reference', '=', reference)
        .executeTakeFirst();
      if (!service) continue;
      for (const site of sites) {
        const row = await trx
          .insertInto('site')
          .values({ service_id: service.id, name: site.name, folder: site.folder, created_at: t, updated_at: t })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const [origin, kind, target] of site.redirections ?? []) {
          const frame = kind === 'frame' ? { iframe_title: 'Blog de ejemplo', iframe_keywords: 'blog, ejemplo' } : {};
          await trx
            .insertInto('redirection')
            .values({ service_id: service.id, site_id: row.id, origin, kind, target, ...frame, created_at: t })
            .execute();
        }
        await enqueueApply(trx, service.id, siteKey(row.id));
      }
      const parked = PARKING_REDIRECTS[reference];
      if (parked) {
        await trx
          .insertInto('redirection')
          .values({ service_id: service.id, site_id: null, origin: '/', kind: '301', target: parked, created_at: t })
          .execute();
        await enqueueApply(trx, service.id, apexKey(service.id));
      }
    }
  });
}
