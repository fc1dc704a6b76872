import type { DnsRecord } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { emptyForm, formFields, formFromRecord, valueErrorPart, zonaErrorOnService } from './form.ts';

const record = (over: Partial<DnsRecord>): DnsRecord => ({
  id: 1,
  zona: '',
  type: 'A',
  reference: 'zona.es',
  referencePunycode: 'zona.es',
  ttl: 0,
  priority: null,
  value: '192.0.2.1',
  dynamicValue: null,
  eliminable: true,
  ...over,
});

describe('the DNS form', () => {
  it('joins SRV name and value from their parts, and splits them back on edit without the trailing dot', () => {
    const form = {
      ...emptyForm(),
      type: 'SRV' as const,
      srvService: '_sip',
      srvProtocol: '_udp',
      zona: 'voz',
      weight: '5',
      port: '5060',
      target: 'sip.example.net',
      priority: '10',
    };
    expect(formFields(form, 'create')).toEqual({
      type: 'SRV',
      zona: '_sip._udp.voz',
      value: '5 5060 sip.example.net.',
      ttl: '0',
      priority: '10',
    });
    const back = formFromRecord(record({ type: 'SRV', zona: '_xmpp._tcp', value: '5 5060 sip.example.net.', priority: 10 }));
    expect(back).toMatchObject({
      srvService: 'other',
      srvOther: '_xmpp',
      srvProtocol: '_tcp',
      zona: '',
      weight: '5',
      port: '5060',
      target: 'sip.example.net',
      priority: '10',
    });
  });

  it('joins CAA flag, tag and quoted text, and removes the quotes on edit', () => {
    const form = { ...emptyForm(), type: 'CAA' as const, caaFlag: '128', caaTag: 'iodef', caaText: 'mailto:a@zona.es' };
    expect(formFields(form, 'edit')).toEqual({ value: '128 iodef "mailto:a@zona.es"', ttl: '0' });
    expect(formFromRecord(record({ type: 'CAA', value: '0 issue "letsencrypt.org"' }))).toMatchObject({
      caaFlag: '0',
      caaTag: 'issue',
      caaText: 'letsencrypt.org',
    });
  });

  it('shows host values without the trailing dot and sends priority only for MX and SRV', () => {
    expect(formFromRecord(record({ type: 'MX', value: 'mail.zona.es.', priority: 10 }))).toMatchObject({
      value: 'mail.zona.es',
      priority: '10',
    });
    expect(formFields({ ...emptyForm(), value: '192.0.2.9' }, 'create')).toEqual({ type: 'A', zona: '', value: '192.0.2.9', ttl: '0' });
  });
});

describe("where the server's message about a composite value shows", () => {
  const srv = { ...emptyForm(), type: 'SRV' as const, weight: '5', port: '5060', target: 'sip.example.net' };
  const caa = { ...emptyForm(), type: 'CAA' as const, caaFlag: '0', caaText: 'letsencrypt.org' };
  it('puts an SRV message under the weight or port out of range, else under the target', () => {
    expect(valueErrorPart({ ...srv, weight: '70000' })).toBe('weight');
    expect(valueErrorPart({ ...srv, weight: '' })).toBe('weight');
    expect(valueErrorPart({ ...srv, port: '99999' })).toBe('port');
    expect(valueErrorPart({ ...srv, port: 'x' })).toBe('port');
    expect(valueErrorPart(srv)).toBe('target');
  });
  it("puts a CAA message under a flag beyond 255, else under the entity or URL, and any other type's under the value", () => {
    expect(valueErrorPart({ ...caa, caaFlag: '256' })).toBe('caaFlag');
    expect(valueErrorPart(caa)).toBe('caaText');
    expect(valueErrorPart({ ...emptyForm(), type: 'A' })).toBe('value');
  });
  it('puts a bad SRV name under the free-text service when that is what is wrong', () => {
    expect(zonaErrorOnService({ ...srv, srvService: 'other', srvOther: 'xmpp' })).toBe(true);
    expect(zonaErrorOnService({ ...srv, srvService: 'other', srvOther: '_xmpp' })).toBe(false);
    expect(zonaErrorOnService({ ...srv, srvService: '_sip' })).toBe(false);
  });
});
