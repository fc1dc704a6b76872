import { CLIENT_STATUSES, type Ctx, changeStatuses, eppDate, mustSponsor, ok, type Reply, refuseIfStatus, statusNodes } from './context.ts';
import { fail } from './results.ts';
import type { DomainObject, HostAddress, HostObject } from './state.ts';
import { childrenNamed, type Element, NS, textOf, x } from './xml.ts';

/** Host objects (RFC 5732): name servers, with addresses only when they sit under a domain of this registry. */
const H = NS.host;
const HOST_CLIENT_STATUSES = CLIENT_STATUSES.filter((s) => s === 'clientDeleteProhibited' || s === 'clientUpdateProhibited');

export const normalise = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** The domain of this registry a host name sits under (it is then a subordinate host, whose addresses are glue). */
export function superordinate(ctx: Ctx, hostName: string): DomainObject | undefined {
  const labels = normalise(hostName).split('.');
  for (let i = 1; i < labels.length - 1; i++) {
    const domain = ctx.state.data.domains[labels.slice(i).join('.')];
    if (domain) return domain;
  }
  return undefined;
}

/** Domains that name this host as a name server. */
export const domainsUsing = (ctx: Ctx, hostName: string) =>
  Object.values(ctx.state.data.domains).filter((d) => d.hostObjs.includes(hostName));

export function addressesOf(elements: Element[]): HostAddress[] {
  return elements.map((e) => ({ ip: e.attrs.ip === 'v6' ? 'v6' : 'v4', addr: e.text.toLowerCase() }));
}

/** RFC 5732: a subordinate host needs an address (2003), an external one must not have one (2306). */
export function checkGlue(ctx: Ctx, name: string, addrs: HostAddress[]): void {
  for (const a of addrs) {
    const v6 = a.addr.includes(':');
    if (v6 !== (a.ip === 'v6')) fail(2005, `${a.addr} is not an ${a.ip === 'v6' ? 'IPv6' : 'IPv4'} address`, a.addr);
  }
  const parent = superordinate(ctx, name);
  if (parent && addrs.length === 0) fail(2003, `${name} is under ${parent.name}, so it needs an address (glue)`, name);
  if (!parent && addrs.length > 0) fail(2306, `${name} is not under a domain of this registry, so it takes no address`, name);
  const unique = new Set(addrs.map((a) => a.addr));
  if (unique.size !== addrs.length) fail(2306, `an address of ${name} is repeated`, name);
}

function find(ctx: Ctx, name: string): HostObject {
  const host = ctx.state.data.hosts[normalise(name)];
  if (!host) fail(2303, `host ${name} does not exist`, name);
  return host as HostObject;
}

/** A subordinate host belongs to its domain's sponsor. */
function mustOwnParent(ctx: Ctx, name: string): void {
  const parent = superordinate(ctx, name);
  if (parent && parent.clID !== ctx.clID) fail(2201, `${name} is under ${parent.name}, sponsored by another client`, name);
}

export function hostCheck(ctx: Ctx): Reply {
  const names = childrenNamed(ctx.cmd.body, H, 'name').map((e) => e.text);
  return ok(
    x('host:chkData', { 'xmlns:host': H }, [
      ...names.map((name) => {
        const taken = Boolean(ctx.state.data.hosts[normalise(name)]);
        return x('host:cd', {}, [x('host:name', { avail: taken ? '0' : '1' }, name), taken && x('host:reason', {}, 'In use')]);
      }),
    ]),
  );
}

export function hostInfo(ctx: Ctx): Reply {
  const host = find(ctx, textOf(ctx.cmd.body, H, 'name') as string);
  const statuses = [...host.statuses];
  if (domainsUsing(ctx, host.name).length) statuses.push({ s: 'linked' });
  if (!statuses.length) statuses.push({ s: 'ok' });
  return ok(
    x('host:infData', { 'xmlns:host': H }, [
      x('host:name', {}, host.name),
      x('host:roid', {}, host.roid),
      ...statusNodes('host', statuses),
      ...host.addrs.map((a) => x('host:addr', { ip: a.ip }, a.addr)),
      x('host:clID', {}, host.clID),
      x('host:crID', {}, host.crID),
      x('host:crDate', {}, eppDate(host.crDate)),
      host.upID && x('host:upID', {}, host.upID),
      host.upDate && x('host:upDate', {}, eppDate(host.upDate)),
      host.trDate && x('host:trDate', {}, eppDate(host.trDate)),
    ]),
  );
}

export function hostCreate(ctx: Ctx): Reply {
  const name = normalise(textOf(ctx.cmd.body, H, 'name') as string);
  if (ctx.state.data.hosts[name]) fail(2302, `host ${name} already exists`, name);
  const addrs = addressesOf(childrenNamed(ctx.cmd.body, H, 'addr'));
  checkGlue(ctx, name, addrs);
  mustOwnParent(ctx, name);
  const now = ctx.now.toISOString();
  ctx.state.data.hosts[name] = { roid: ctx.state.roid('H'), name, addrs, statuses: [], clID: ctx.clID, crID: ctx.clID, crDate: now };
  return ok(x('host:creData', { 'xmlns:host': H }, [x('host:name', {}, name), x('host:crDate', {}, eppDate(now))]));
}

export function hostDelete(ctx: Ctx): Reply {
  const host = find(ctx, textOf(ctx.cmd.body, H, 'name') as string);
  mustSponsor(ctx, host, host.name);
  refuseIfStatus(host.statuses, ['clientDeleteProhibited', 'serverDeleteProhibited', 'pendingTransfer'], 'delete');
  const users = domainsUsing(ctx, host.name);
  if (users.length) fail(2305, `${host.name} is a name server of ${users.map((d) => d.name).join(', ')}`, host.name);
  delete ctx.state.data.hosts[host.name];
  return ok();
}

export function hostUpdate(ctx: Ctx): Reply {
  const body = ctx.cmd.body;
  const host = find(ctx, textOf(body, H, 'name') as string);
  mustSponsor(ctx, host, host.name);
  const add = childrenNamed(body, H, 'add')[0];
  const rem = childrenNamed(body, H, 'rem')[0];
  const chg = childrenNamed(body, H, 'chg')[0];
  const remStatuses = childrenNamed(rem, H, 'status');
  refuseIfStatus(host.statuses, ['serverUpdateProhibited', 'pendingDelete', 'pendingTransfer'], 'update');
  const onlyLifts =
    remStatuses.some((s) => s.attrs.s === 'clientUpdateProhibited') &&
    !chg &&
    !childrenNamed(add, H, 'addr').length &&
    !childrenNamed(rem, H, 'addr').length;
  if (!onlyLifts) refuseIfStatus(host.statuses, ['clientUpdateProhibited'], 'update');
  const statuses = changeStatuses(host.statuses, childrenNamed(add, H, 'status'), remStatuses, HOST_CLIENT_STATUSES);
  let addrs = [...host.addrs];
  for (const a of addressesOf(childrenNamed(rem, H, 'addr'))) {
    if (!addrs.some((b) => b.addr === a.addr)) fail(2306, `${a.addr} is not an address of ${host.name}`, a.addr);
    addrs = addrs.filter((b) => b.addr !== a.addr);
  }
  for (const a of addressesOf(childrenNamed(add, H, 'addr'))) {
    if (addrs.some((b) => b.addr === a.addr)) fail(2306, `${a.addr} is already an address of ${host.name}`, a.addr);
    addrs.push(a);
  }
  const newName = chg ? normalise(textOf(chg, H, 'name') as string) : host.name;
  if (newName !== host.name) {
    if (ctx.state.data.hosts[newName]) fail(2302, `host ${newName} already exists`, newName);
    mustOwnParent(ctx, newName);
  }
  checkGlue(ctx, newName, addrs);
  Object.assign(host, { statuses, addrs, upID: ctx.clID, upDate: ctx.now.toISOString() });
  if (newName !== host.name) {
    for (const domain of domainsUsing(ctx, host.name)) domain.hostObjs = domain.hostObjs.map((n) => (n === host.name ? newName : n));
    delete ctx.state.data.hosts[host.name];
    host.name = newName;
    ctx.state.data.hosts[newName] = host;
  }
  return ok();
}
