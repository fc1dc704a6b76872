import {
  CAA_DEFAULT,
  DEFAULT_DNS_TYPE,
  DEFAULT_PRIORITY,
  DEFAULT_TTL,
  type DnsRecord,
  type DnsType,
  hasPriority,
  joinCaaValue,
  joinSrvName,
  joinSrvValue,
  SRV_OTHER_SERVICE,
  SRV_PROTOCOLS,
  SRV_SERVICES,
  splitCaaValue,
  splitSrvName,
  splitSrvValue,
  withoutDot,
} from '@atalaya/contract';

/** The create/edit form: the composite SRV and CAA values in their parts (docs/behaviour/service-area-dns.md#validation). */
export interface DnsForm {
  type: DnsType;
  zona: string;
  srvService: string;
  /** The free-text service when srvService is 'other'. */
  srvOther: string;
  srvProtocol: string;
  value: string;
  weight: string;
  port: string;
  target: string;
  caaFlag: string;
  caaTag: string;
  caaText: string;
  ttl: string;
  priority: string;
}

export const OTHER_SERVICE = 'other';
const HOST_TYPES: readonly DnsType[] = ['ANAME', 'CNAME', 'MX', 'NS'];

export const emptyForm = (): DnsForm => ({
  type: DEFAULT_DNS_TYPE,
  zona: '',
  srvService: SRV_SERVICES[0],
  srvOther: '',
  srvProtocol: SRV_PROTOCOLS[0],
  value: '',
  weight: '0',
  port: '',
  target: '',
  caaFlag: String(CAA_DEFAULT.flag),
  caaTag: CAA_DEFAULT.tag,
  caaText: '',
  ttl: String(DEFAULT_TTL),
  priority: String(DEFAULT_PRIORITY),
});

/** Edit: the record split back into the form's parts, quotes and trailing dots removed. */
export function formFromRecord(r: DnsRecord): DnsForm {
  const form: DnsForm = {
    ...emptyForm(),
    type: r.type,
    zona: r.zona,
    ttl: String(r.ttl),
    priority: String(r.priority ?? DEFAULT_PRIORITY),
  };
  if (r.type === 'SRV') {
    const name = splitSrvName(r.zona);
    const known = (SRV_SERVICES as readonly string[]).includes(name.service);
    Object.assign(form, splitSrvValue(r.value), {
      srvService: known ? name.service : OTHER_SERVICE,
      srvOther: known ? '' : name.service,
      srvProtocol: name.protocol,
      zona: name.zona,
    });
  } else if (r.type === 'CAA') {
    const caa = splitCaaValue(r.value);
    Object.assign(form, { caaFlag: caa.flag, caaTag: caa.tag, caaText: caa.text });
  } else {
    form.value = HOST_TYPES.includes(r.type) ? withoutDot(r.value) : r.value;
  }
  return form;
}

/** The value the server receives, joined from the parts for SRV and CAA. */
export function formValue(f: DnsForm): string {
  if (f.type === 'SRV') return joinSrvValue({ weight: f.weight, port: f.port, target: f.target });
  if (f.type === 'CAA') return joinCaaValue({ flag: f.caaFlag, tag: f.caaTag, text: f.caaText });
  return f.value;
}

/** The SRV name `_service._protocol[.zona]`, any other type's zona as typed. */
export function formZona(f: DnsForm): string {
  if (f.type !== 'SRV') return f.zona;
  const service = f.srvService === OTHER_SERVICE ? f.srvOther : f.srvService;
  return joinSrvName({ service, protocol: f.srvProtocol, zona: f.zona });
}

/** The fields of POST create/ (with type and zona) or save/ (value, ttl, priority). */
export function formFields(f: DnsForm, mode: 'create' | 'edit') {
  const common = { value: formValue(f), ttl: f.ttl, ...(hasPriority(f.type) ? { priority: f.priority } : {}) };
  return mode === 'create' ? { type: f.type, zona: formZona(f), ...common } : common;
}

const upTo = (text: string, max: number) => /^\d{1,5}$/.test(text.trim()) && Number(text) <= max;

/**
 * Which input of the form shows the server's message about `value`: the server checks the joined
 * SRV or CAA value, so its message would otherwise sit under the last part whatever part was wrong
 * (a weight of 70000 reported under the target). The first part out of its range takes it.
 */
export function valueErrorPart(f: DnsForm): 'value' | 'weight' | 'port' | 'target' | 'caaFlag' | 'caaText' {
  if (f.type === 'SRV') {
    if (!upTo(f.weight, 65535)) return 'weight';
    return upTo(f.port, 65535) ? 'target' : 'port';
  }
  if (f.type === 'CAA') return upTo(f.caaFlag, 255) ? 'caaText' : 'caaFlag';
  return 'value';
}

/** The server reports a bad SRV name under `zona`; when the free-text service is what is wrong, it shows there. */
export const zonaErrorOnService = (f: DnsForm) =>
  f.type === 'SRV' && f.srvService === OTHER_SERVICE && !SRV_OTHER_SERVICE.test(f.srvOther.trim());
