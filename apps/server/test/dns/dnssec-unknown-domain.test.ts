import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DomainTest, openDomainTest } from '../domain/helpers.ts';
import { type Fields, send } from '../fixtures.ts';
import { describeStores } from '../stores.ts';

/**
 * A zone whose domain the registry does not know (issue 44.9: never registered there, or purged):
 * the DNSSEC calls that read the registry answer a clear, translated refusal, not a 500.
 */
describeStores('the zone DNSSEC calls for a domain the registry does not know on %s', (kind) => {
  let t: DomainTest;
  let headers: Record<string, string>;
  beforeAll(async () => {
    // u.es is the operator's item never registered (decision 051): the test registry has never heard of it.
    t = await openDomainTest(kind, 'epp', [{ reference: 'u.es', domain: true, service: 'normal', unregistered: true }]);
    headers = await t.account.as('w');
  });
  afterAll(() => t.close());
  const call = (method: 'GET' | 'POST', path: string, language: string, body?: Fields) =>
    send(t.ctx.app, method, `/service/${t.id('u.es')}/dns/${path}?language=${language}`, headers, body);

  it('answers 409 with the reason in es, en and ca on reading DNSSEC, checking the delegation and switching it on, and changes nothing', async () => {
    expect(t.registry!.state.data.domains['u.es']).toBeUndefined();
    const messages: Record<string, string> = {
      es: 'El registro no conoce el dominio u.es: no se puede leer ni publicar su DNSSEC allí',
      en: 'The registry does not know the domain u.es: its DNSSEC cannot be read or placed there',
      ca: 'El registre no coneix el domini u.es: no se’n pot llegir ni publicar el DNSSEC',
    };
    for (const [language, message] of Object.entries(messages)) {
      const read = await call('GET', 'dnssec/', language);
      expect({ status: read.status, errors: read.body.system.errors }).toEqual({ status: 409, errors: [message] });
    }
    const check = await call('GET', 'check/', 'en');
    expect({ status: check.status, errors: check.body.system.errors }).toEqual({ status: 409, errors: [messages.en] });
    const off = await call('POST', 'dnssec/', 'en', { enabled: 0 });
    expect(off.status).toBe(200);
    const on = await call('POST', 'dnssec/', 'en', { enabled: 1 });
    expect({ status: on.status, errors: on.body.system.errors }).toEqual({ status: 409, errors: [messages.en] });
    const zone = await t.ctx.store.selectFrom('dns_zone').select('dnssec').where('item_id', '=', t.id('u.es')).executeTakeFirstOrThrow();
    expect(zone.dnssec).toBe('off');
  });
});
