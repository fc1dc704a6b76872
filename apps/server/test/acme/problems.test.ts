import { translate } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { AcmeRefusal, storedRefusal } from '../../src/modules/sites/acme/problems.ts';
import { PermanentJobError } from '../../src/outbox/permanent.ts';

describe("an ACME server's refusal", () => {
  const nxdomain = {
    type: 'urn:ietf:params:acme:error:dns',
    detail: 'DNS problem: NXDOMAIN looking up A for nada.tienda.test - check that a DNS record exists for this domain',
  };

  it('is translated by its problem type in es, en and ca, with the server’s words kept', () => {
    const refusal = new AcmeRefusal(nxdomain, 'nada.tienda.test');
    expect(refusal).toBeInstanceOf(PermanentJobError);
    expect(refusal.key).toBe('sites.acme_error_dns');
    expect(translate('es', refusal.key, refusal.params)).toBe(
      `Problema de DNS: la autoridad no pudo resolver nada.tienda.test (${nxdomain.detail})`,
    );
    expect(translate('en', refusal.key, refusal.params)).toMatch(
      /^DNS problem: the authority could not resolve nada\.tienda\.test \(DNS problem: NXDOMAIN/,
    );
    expect(translate('ca', refusal.key, refusal.params)).toMatch(/^Problema de DNS: l’autoritat no ha pogut resoldre nada\.tienda\.test/);
  });

  it('of an unknown type shows the server’s detail as it came', () => {
    const refusal = new AcmeRefusal({ type: 'urn:example:odd', detail: 'Something\n odd' }, 'x.test');
    expect(translate('en', refusal.key, refusal.params)).toBe('The authority refused the request: Something odd');
  });

  it('is stored as key and parameters, and a damaged stored value reads as none', () => {
    const refusal = new AcmeRefusal(nxdomain, 'nada.tienda.test');
    expect(storedRefusal(JSON.stringify({ key: refusal.key, params: refusal.params }))).toEqual({
      key: refusal.key,
      params: refusal.params,
    });
    expect(storedRefusal('{not json')).toBeNull();
    expect(storedRefusal(null)).toBeNull();
  });
});
