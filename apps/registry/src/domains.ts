import { CLIENT_STATUSES, type Ctx, changeStatuses, eppDate, mustSponsor, ok, type Reply, refuseIfStatus, statusNodes } from './context.ts';
import { addressesOf, checkGlue, normalise } from './hosts.ts';
import { completeDomainTransfer } from './lifecycle.ts';
import { fail } from './results.ts';
import { applySecDnsCreate, applySecDnsUpdate, secDnsInfo } from './secdns.ts';
import type { DomainObject } from './state.ts';
import { transfer, transferNode } from './transfers.ts';
import { child, childrenNamed, type Element, type Node, NS, textOf, x } from './xml.ts';

/** Domain objects (RFC 5731) with the registry's policy, secDNS-1.1 (RFC 5910) and rgp-1.0 (RFC 3915). */
const D = NS.domain;

export function findDomain(ctx: Ctx, name: string): DomainObject {
  const domain = ctx.state.data.domains[normalise(name)];
  if (!domain) fail(2303, `domain ${name} does not exist`, name);
  return domain as DomainObject;
}

/** The period in months: 1–`maxYears` years (2004 outside). */
export function months(period: Element | undefined, maxYears: number): number {
  if (!period) return 12;
  const value = Number(period.text);
  const total = period.attrs.unit === 'm' ? value : value * 12;
  if (total < 12 || total > maxYears * 12 || total % 12 !== 0)
    fail(2004, `a period of ${value}${period.attrs.unit} is outside 1 to ${maxYears} years`, period.text);
  return total;
}

export function addMonths(iso: string, count: number): string {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + count);
  return date.toISOString();
}

function nameServerCount(ctx: Ctx, domain: DomainObject): void {
  const count = ctx.policy.hostModel === 'objects' ? domain.hostObjs.length : domain.hostAttrs.length;
  const { nsMin, nsMax } = ctx.policy;
  if (count > 0 && (count < nsMin || count > nsMax)) {
    fail(2306, `a domain takes ${nsMin} to ${nsMax} name servers (or none), not ${count}`, String(count));
  }
}

/** Host objects to add to a domain (they must exist) or host attributes with their glue rules. */
function readNs(ctx: Ctx, ns: Element | undefined, domainName: string) {
  const hostObjs = childrenNamed(ns, D, 'hostObj').map((e) => normalise(e.text));
  const hostAttrs = childrenNamed(ns, D, 'hostAttr').map((e) => ({
    name: normalise(textOf(e, D, 'hostName') as string),
    addrs: addressesOf(childrenNamed(e, D, 'hostAddr')),
  }));
  if (ctx.policy.hostModel === 'objects' && hostAttrs.length)
    fail(2306, 'this registry takes name servers as host objects (hostObj), not hostAttr');
  if (ctx.policy.hostModel === 'attributes' && hostObjs.length)
    fail(2306, 'this registry takes name servers as host attributes (hostAttr), not hostObj');
  for (const name of hostObjs) if (!ctx.state.data.hosts[name]) fail(2303, `host ${name} does not exist`, name);
  for (const attr of hostAttrs) {
    // A host attribute under the domain itself needs glue just as one under another domain here.
    if (attr.name.endsWith(`.${domainName}`) && !attr.addrs.length)
      fail(2003, `${attr.name} is under ${domainName}, so it needs an address (glue)`, attr.name);
    else if (!attr.name.endsWith(`.${domainName}`)) checkGlue(ctx, attr.name, attr.addrs);
  }
  return { hostObjs, hostAttrs };
}

function checkContacts(ctx: Ctx, ids: string[]): void {
  for (const id of ids) if (!ctx.state.data.contacts[id]) fail(2303, `contact ${id} does not exist`, id);
}

const readContacts = (parent: Element | undefined) => childrenNamed(parent, D, 'contact').map((e) => ({ type: e.attrs.type, id: e.text }));

function extension(ctx: Ctx, ns: string, local: string): Element | undefined {
  return ctx.cmd.extensions.find((e) => e.ns === ns && e.local === local);
}

export function domainCheck(ctx: Ctx): Reply {
  const names = childrenNamed(ctx.cmd.body, D, 'name').map((e) => e.text);
  return ok(
    x('domain:chkData', { 'xmlns:domain': D }, [
      ...names.map((name) => {
        const domain = ctx.state.data.domains[normalise(name)];
        const reason = domain ? (domain.deletedAt ? 'In redemption' : 'In use') : undefined;
        return x('domain:cd', {}, [x('domain:name', { avail: domain ? '0' : '1' }, name), reason && x('domain:reason', {}, reason)]);
      }),
    ]),
  );
}

export function domainStatuses(domain: DomainObject) {
  const statuses = [...domain.statuses];
  if (!domain.hostObjs.length && !domain.hostAttrs.length) statuses.push({ s: 'inactive' });
  if (!statuses.length) statuses.push({ s: 'ok' });
  return statuses;
}

export function domainInfo(ctx: Ctx): Reply {
  const nameEl = child(ctx.cmd.body, D, 'name') as Element;
  const domain = findDomain(ctx, nameEl.text);
  const given = textOf(child(ctx.cmd.body, D, 'authInfo'), D, 'pw');
  if (given !== undefined && domain.clID !== ctx.clID && given !== domain.authInfo) fail(2202, 'the authorisation code is wrong');
  // The sponsor, or a client holding the code, sees everything; any other client sees no contacts or code.
  const full = domain.clID === ctx.clID || given === domain.authInfo;
  const hosts = nameEl.attrs.hosts ?? 'all';
  const subordinates = Object.values(ctx.state.data.hosts)
    .filter((h) => h.name.endsWith(`.${domain.name}`))
    .map((h) => h.name);
  const showNs = hosts === 'all' || hosts === 'del';
  const ns =
    domain.hostObjs.length || domain.hostAttrs.length
      ? x('domain:ns', {}, [
          ...domain.hostObjs.map((n) => x('domain:hostObj', {}, n)),
          ...domain.hostAttrs.map((a) =>
            x('domain:hostAttr', {}, [
              x('domain:hostName', {}, a.name),
              ...a.addrs.map((ad) => x('domain:hostAddr', { ip: ad.ip }, ad.addr)),
            ]),
          ),
        ])
      : undefined;
  const ext = [
    secDnsInfo(domain),
    domain.rgp ? x('rgp:infData', { 'xmlns:rgp': NS.rgp }, [x('rgp:rgpStatus', { s: domain.rgp })]) : undefined,
  ].filter((node): node is Node => node !== undefined);
  return ok(
    x('domain:infData', { 'xmlns:domain': D }, [
      x('domain:name', {}, domain.name),
      x('domain:roid', {}, domain.roid),
      ...statusNodes('domain', domainStatuses(domain)),
      full && domain.registrant && x('domain:registrant', {}, domain.registrant),
      ...(full ? domain.contacts.map((c) => x('domain:contact', { type: c.type }, c.id)) : []),
      showNs && ns,
      ...(hosts === 'all' || hosts === 'sub' ? subordinates.map((h) => x('domain:host', {}, h)) : []),
      x('domain:clID', {}, domain.clID),
      x('domain:crID', {}, domain.crID),
      x('domain:crDate', {}, eppDate(domain.crDate)),
      domain.upID && x('domain:upID', {}, domain.upID),
      domain.upDate && x('domain:upDate', {}, eppDate(domain.upDate)),
      x('domain:exDate', {}, eppDate(domain.exDate)),
      domain.trDate && x('domain:trDate', {}, eppDate(domain.trDate)),
      full && x('domain:authInfo', {}, [x('domain:pw', {}, domain.authInfo)]),
    ]),
    ext.length ? ext : undefined,
  );
}

export function domainCreate(ctx: Ctx): Reply {
  const body = ctx.cmd.body;
  const name = normalise(textOf(body, D, 'name') as string);
  if (ctx.state.data.domains[name]) fail(2302, `domain ${name} already exists`, name);
  const term = months(child(body, D, 'period'), ctx.policy.maxYears);
  const { hostObjs, hostAttrs } = readNs(ctx, child(body, D, 'ns'), name);
  const registrant = textOf(body, D, 'registrant');
  if (!registrant && ctx.policy.registrantRequired) fail(2003, 'this registry requires a registrant');
  const contacts = readContacts(body);
  checkContacts(ctx, [...(registrant ? [registrant] : []), ...contacts.map((c) => c.id)]);
  const now = ctx.now.toISOString();
  const domain: DomainObject = {
    roid: ctx.state.roid('D'),
    name,
    registrant,
    contacts,
    hostObjs,
    hostAttrs,
    statuses: [],
    clID: ctx.clID,
    crID: ctx.clID,
    crDate: now,
    exDate: addMonths(now, term),
    authInfo: textOf(child(body, D, 'authInfo'), D, 'pw') ?? '',
    secDNS: { ds: [], keys: [] },
  };
  nameServerCount(ctx, domain);
  const secDns = extension(ctx, NS.secDNS, 'create');
  if (secDns) applySecDnsCreate(ctx, domain, secDns);
  ctx.state.data.domains[name] = domain;
  return ok(
    x('domain:creData', { 'xmlns:domain': D }, [
      x('domain:name', {}, name),
      x('domain:crDate', {}, eppDate(now)),
      x('domain:exDate', {}, eppDate(domain.exDate)),
    ]),
  );
}

export function domainDelete(ctx: Ctx): Reply {
  const domain = findDomain(ctx, textOf(ctx.cmd.body, D, 'name') as string);
  mustSponsor(ctx, domain, domain.name);
  refuseIfStatus(domain.statuses, ['clientDeleteProhibited', 'serverDeleteProhibited', 'pendingDelete', 'pendingTransfer'], 'delete');
  const subordinate = Object.values(ctx.state.data.hosts).filter((h) => h.name.endsWith(`.${domain.name}`));
  const inUse = subordinate.find((h) => Object.values(ctx.state.data.domains).some((d) => d.hostObjs.includes(h.name)));
  if (inUse) fail(2305, `${inUse.name} under ${domain.name} is a name server of a domain`, inUse.name);
  if (subordinate.length)
    fail(
      2305,
      `${domain.name} has subordinate hosts (${subordinate.map((h) => h.name).join(', ')}); delete them first`,
      subordinate[0].name,
    );
  // RFC 3915: a deleted domain is not gone; it can be restored during its redemption period.
  Object.assign(domain, {
    statuses: [{ s: 'pendingDelete' }],
    rgp: 'redemptionPeriod',
    deletedAt: ctx.now.toISOString(),
    upID: ctx.clID,
    upDate: ctx.now.toISOString(),
  });
  return ok();
}

export function domainRenew(ctx: Ctx): Reply {
  const body = ctx.cmd.body;
  const domain = findDomain(ctx, textOf(body, D, 'name') as string);
  mustSponsor(ctx, domain, domain.name);
  refuseIfStatus(domain.statuses, ['clientRenewProhibited', 'serverRenewProhibited', 'pendingDelete', 'pendingTransfer'], 'renew');
  const current = textOf(body, D, 'curExpDate') as string;
  if (current !== domain.exDate.slice(0, 10))
    fail(2306, `curExpDate ${current} is not the expiry date ${domain.exDate.slice(0, 10)}`, current);
  const exDate = addMonths(domain.exDate, months(child(body, D, 'period'), ctx.policy.maxYears));
  if (Date.parse(exDate) > Date.parse(addMonths(ctx.now.toISOString(), ctx.policy.maxYears * 12))) {
    fail(2306, `the expiry date cannot pass ${ctx.policy.maxYears} years from today`, exDate.slice(0, 10));
  }
  domain.exDate = exDate;
  // Renewed out of its grace period: no longer expired.
  if (Date.parse(exDate) > ctx.now.getTime()) domain.rgp = undefined;
  return ok(x('domain:renData', { 'xmlns:domain': D }, [x('domain:name', {}, domain.name), x('domain:exDate', {}, eppDate(exDate))]));
}

/** RFC 3915 restore: `request` moves a domain in redemption to pendingRestore; `report` restores it. */
function restore(ctx: Ctx, domain: DomainObject, restoreEl: Element): Reply {
  const op = restoreEl.attrs.op;
  if (op === 'request') {
    if (domain.rgp !== 'redemptionPeriod') fail(2304, `${domain.name} is not in its redemption period`, domain.name);
    domain.rgp = 'pendingRestore';
  } else {
    if (domain.rgp !== 'pendingRestore') fail(2304, `${domain.name} has no restore request pending`, domain.name);
    if (!child(restoreEl, NS.rgp, 'report')) fail(2003, 'a restore report needs <rgp:report>');
    // A domain deleted at the end of its renewal grace comes back renewed, a year at a time, until it is current.
    let exDate = domain.exDate;
    while (Date.parse(exDate) <= ctx.now.getTime()) exDate = addMonths(exDate, 12);
    Object.assign(domain, { rgp: undefined, deletedAt: undefined, statuses: [], exDate });
  }
  Object.assign(domain, { upID: ctx.clID, upDate: ctx.now.toISOString() });
  return ok(undefined, [
    x('rgp:upData', { 'xmlns:rgp': NS.rgp }, [x('rgp:rgpStatus', { s: domain.rgp === 'pendingRestore' ? 'pendingRestore' : 'addPeriod' })]),
  ]);
}

export function domainUpdate(ctx: Ctx): Reply {
  const body = ctx.cmd.body;
  const domain = findDomain(ctx, textOf(body, D, 'name') as string);
  mustSponsor(ctx, domain, domain.name);
  const add = child(body, D, 'add');
  const rem = child(body, D, 'rem');
  const chg = child(body, D, 'chg');
  const rgpUpdate = extension(ctx, NS.rgp, 'update');
  if (rgpUpdate) return restore(ctx, domain, child(rgpUpdate, NS.rgp, 'restore') as Element);
  const secDnsUpdate = extension(ctx, NS.secDNS, 'update');
  refuseIfStatus(domain.statuses, ['serverUpdateProhibited', 'pendingDelete', 'pendingTransfer'], 'update');
  const remStatuses = childrenNamed(rem, D, 'status');
  // RFC 5731: with clientUpdateProhibited set, the only update allowed is one that lifts it.
  const changesOnlyStatuses = !chg && !secDnsUpdate && [add, rem].every((e) => !e || e.children.every((c) => c.local === 'status'));
  const lifts = remStatuses.some((s) => s.attrs.s === 'clientUpdateProhibited');
  if (!(lifts && changesOnlyStatuses)) refuseIfStatus(domain.statuses, ['clientUpdateProhibited'], 'update');

  const next: DomainObject = structuredClone(domain);
  next.statuses = changeStatuses(domain.statuses, childrenNamed(add, D, 'status'), remStatuses, CLIENT_STATUSES);
  const remNs = readNsNames(child(rem, D, 'ns'));
  for (const n of remNs) {
    if (!next.hostObjs.includes(n) && !next.hostAttrs.some((a) => a.name === n))
      fail(2306, `${n} is not a name server of ${domain.name}`, n);
    next.hostObjs = next.hostObjs.filter((h) => h !== n);
    next.hostAttrs = next.hostAttrs.filter((a) => a.name !== n);
  }
  const added = readNs(ctx, child(add, D, 'ns'), domain.name);
  for (const n of [...added.hostObjs, ...added.hostAttrs.map((a) => a.name)]) {
    if (next.hostObjs.includes(n) || next.hostAttrs.some((a) => a.name === n))
      fail(2306, `${n} is already a name server of ${domain.name}`, n);
  }
  next.hostObjs.push(...added.hostObjs);
  next.hostAttrs.push(...added.hostAttrs);
  nameServerCount(ctx, next);

  for (const c of readContacts(rem)) {
    if (!next.contacts.some((d) => d.type === c.type && d.id === c.id))
      fail(2306, `${c.id} is not the ${c.type} contact of ${domain.name}`, c.id);
    next.contacts = next.contacts.filter((d) => !(d.type === c.type && d.id === c.id));
  }
  const addContacts = readContacts(add);
  checkContacts(
    ctx,
    addContacts.map((c) => c.id),
  );
  for (const c of addContacts) {
    if (next.contacts.some((d) => d.type === c.type && d.id === c.id))
      fail(2306, `${c.id} is already the ${c.type} contact of ${domain.name}`, c.id);
    next.contacts.push(c);
  }
  const registrant = child(chg, D, 'registrant');
  if (registrant) {
    if (!registrant.text && ctx.policy.registrantRequired)
      fail(2308, 'a domain of this registry keeps a registrant: change it, do not remove it');
    if (registrant.text) checkContacts(ctx, [registrant.text]);
    next.registrant = registrant.text || undefined;
  }
  const auth = child(chg, D, 'authInfo');
  if (auth) next.authInfo = textOf(auth, D, 'pw') ?? '';
  if (secDnsUpdate) applySecDnsUpdate(ctx, next, secDnsUpdate);
  Object.assign(domain, next, { upID: ctx.clID, upDate: ctx.now.toISOString() });
  return ok();
}

function readNsNames(ns: Element | undefined): string[] {
  return [
    ...childrenNamed(ns, D, 'hostObj').map((e) => normalise(e.text)),
    ...childrenNamed(ns, D, 'hostAttr').map((e) => normalise(textOf(e, D, 'hostName') as string)),
  ];
}

export const domainTransferNode = (domain: DomainObject) =>
  transferNode('domain', D, domain.name, domain.transfer, domain.transfer?.status === 'pending' ? undefined : domain.exDate);

export function domainTransfer(ctx: Ctx): Reply {
  const body = ctx.cmd.body;
  const domain = findDomain(ctx, textOf(body, D, 'name') as string);
  const years = ctx.cmd.op === 'request' ? months(child(body, D, 'period'), ctx.policy.maxYears) / 12 : (domain.transfer?.years ?? 1);
  return transfer(ctx, {
    object: domain,
    given: textOf(child(body, D, 'authInfo'), D, 'pw'),
    years,
    approveAfterMs: ctx.policy.transferApproveMs,
    node: () => domainTransferNode(domain),
    onApprove: () => completeDomainTransfer(ctx.state, domain, ctx.now),
  });
}
