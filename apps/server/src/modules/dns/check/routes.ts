import { endpoints, translate } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { dnsSettings } from '../../../drivers/dns/index.ts';
import { requestLanguage } from '../../../http/language.ts';
import { route } from '../../../http/route.ts';
import { now } from '../../../store/db.ts';
import { zoneOf } from '../access.ts';
import { registryDs, unknownAtRegistry } from '../dnssec/state.ts';
import { fqdn } from '../names.ts';
import { loadRecords } from '../record-store.ts';
import { checkDelegation, type Finding } from './findings.ts';

/** GET /service/{id}/dns/check/: asks the registry and every name server of the zone. */
export default async function checkRoutes(app: FastifyInstance) {
  const { store, config, drivers } = app.runtime;
  const settings = dnsSettings(config);
  const zones = { settings };

  route(app, endpoints.dns.check, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const records = await loadRecords(store, itemId);
    const zoneServers = records
      .filter((r) => r.zona === '' && r.type === 'NS')
      .map((r) => (r.value.endsWith('.') ? r.value : fqdn(r.value, zone)));
    const { domain, held, unknown } = await registryDs({ drivers }, itemId);
    if (unknown) throw unknownAtRegistry(zone);
    const registry = domain ? { nameServers: domain.nameServers, ds: held } : null;
    const { dnssec } = await store.selectFrom('dns_zone').select('dnssec').where('item_id', '=', itemId).executeTakeFirstOrThrow();
    const findings = await checkDelegation({
      zone,
      zoneServers: zoneServers.length ? zoneServers : settings.nameservers,
      registry,
      signed: dnssec === 'on',
      addresses: settings.nsAddresses,
      now: now(),
    });
    const lang = requestLanguage(request);
    const say = (f: Finding) => ({
      ...f,
      text: translate(lang, `dns.check.${f.code}`, f.params),
      fix: f.level === 'ok' ? '' : translate(lang, `dns.check.${f.code}_fix`, f.params),
    });
    return { data: { zone, findings: findings.map(say) } };
  });
}
