import { type Ctx, changeStatuses, eppDate, mustSponsor, ok, type Reply, refuseIfStatus, statusNodes } from './context.ts';
import { fail } from './results.ts';
import type { ContactObject, Phone, PostalInfo } from './state.ts';
import { transfer, transferNode } from './transfers.ts';
import { child, childrenNamed, type Element, NS, textOf, x } from './xml.ts';

/** Contact objects (RFC 5733), with disclose flags: what a non-sponsor may see (whois privacy). */
const C = NS.contact;
const CONTACT_CLIENT_STATUSES = ['clientDeleteProhibited', 'clientTransferProhibited', 'clientUpdateProhibited'];

function find(ctx: Ctx, id: string): ContactObject {
  const contact = ctx.state.data.contacts[id];
  if (!contact) fail(2303, `contact ${id} does not exist`, id);
  return contact as ContactObject;
}

const linkedDomains = (ctx: Ctx, id: string) =>
  Object.values(ctx.state.data.domains).filter((d) => d.registrant === id || d.contacts.some((c) => c.id === id));

function readPostal(e: Element, previous?: PostalInfo): PostalInfo {
  const addr = child(e, C, 'addr');
  const type = e.attrs.type as 'int' | 'loc';
  if (type === 'int' && /[^\x20-\x7e]/.test(e.children.map((c) => c.text + c.children.map((d) => d.text).join('')).join(''))) {
    fail(2005, 'an int postalInfo takes only 7-bit ASCII; use loc for other characters');
  }
  return {
    type,
    name: textOf(e, C, 'name') ?? previous?.name ?? '',
    org: child(e, C, 'org') ? textOf(e, C, 'org') || undefined : previous?.org,
    street: addr ? childrenNamed(addr, C, 'street').map((s) => s.text) : (previous?.street ?? []),
    city: addr ? (textOf(addr, C, 'city') as string) : (previous?.city ?? ''),
    sp: addr ? textOf(addr, C, 'sp') || undefined : previous?.sp,
    pc: addr ? textOf(addr, C, 'pc') || undefined : previous?.pc,
    cc: addr ? (textOf(addr, C, 'cc') as string).toUpperCase() : (previous?.cc ?? ''),
  };
}

const readPhone = (e: Element | undefined): Phone | undefined =>
  e?.text ? { number: e.text, ...(e.attrs.x ? { x: e.attrs.x } : {}) } : undefined;

/** The fields a `<contact:disclose flag="0">` hides (`flag="1"` shows them all: this registry discloses by default). */
function readDisclose(e: Element | undefined): string[] {
  if (!e || e.attrs.flag === '1' || e.attrs.flag === 'true') return [];
  return e.children.map((c) => (c.attrs.type ? `${c.local}:${c.attrs.type}` : c.local));
}

export function contactCheck(ctx: Ctx): Reply {
  const ids = childrenNamed(ctx.cmd.body, C, 'id').map((e) => e.text);
  return ok(
    x('contact:chkData', { 'xmlns:contact': C }, [
      ...ids.map((id) => {
        const taken = Boolean(ctx.state.data.contacts[id]);
        return x('contact:cd', {}, [x('contact:id', { avail: taken ? '0' : '1' }, id), taken && x('contact:reason', {}, 'In use')]);
      }),
    ]),
  );
}

export function contactCreate(ctx: Ctx): Reply {
  const body = ctx.cmd.body;
  const id = textOf(body, C, 'id') as string;
  if (ctx.state.data.contacts[id]) fail(2302, `contact ${id} already exists`, id);
  const postalInfo = childrenNamed(body, C, 'postalInfo').map((e) => readPostal(e));
  if (postalInfo.length === 2 && postalInfo[0].type === postalInfo[1].type) fail(2306, 'the two postalInfo must be one int and one loc');
  const now = ctx.now.toISOString();
  ctx.state.data.contacts[id] = {
    roid: ctx.state.roid('C'),
    id,
    postalInfo,
    voice: readPhone(child(body, C, 'voice')),
    fax: readPhone(child(body, C, 'fax')),
    email: textOf(body, C, 'email') as string,
    authInfo: textOf(child(body, C, 'authInfo'), C, 'pw') ?? '',
    hidden: readDisclose(child(body, C, 'disclose')),
    statuses: [],
    clID: ctx.clID,
    crID: ctx.clID,
    crDate: now,
  };
  return ok(x('contact:creData', { 'xmlns:contact': C }, [x('contact:id', {}, id), x('contact:crDate', {}, eppDate(now))]));
}

export function contactInfo(ctx: Ctx): Reply {
  const contact = find(ctx, textOf(ctx.cmd.body, C, 'id') as string);
  const given = textOf(child(ctx.cmd.body, C, 'authInfo'), C, 'pw');
  if (given !== undefined && contact.clID !== ctx.clID && given !== contact.authInfo) fail(2202, 'the authorisation code is wrong');
  const full = contact.clID === ctx.clID || given === contact.authInfo;
  const shows = (field: string) => full || !contact.hidden.includes(field);
  const statuses = [...contact.statuses];
  if (linkedDomains(ctx, contact.id).length) statuses.push({ s: 'linked' });
  if (!statuses.length) statuses.push({ s: 'ok' });
  const phone = (name: string, p?: Phone) => p && shows(name) && x(`contact:${name}`, { x: p.x }, p.number);
  return ok(
    x('contact:infData', { 'xmlns:contact': C }, [
      x('contact:id', {}, contact.id),
      x('contact:roid', {}, contact.roid),
      ...statusNodes('contact', statuses),
      ...contact.postalInfo.map((p) =>
        x('contact:postalInfo', { type: p.type }, [
          shows(`name:${p.type}`) && x('contact:name', {}, p.name),
          p.org && shows(`org:${p.type}`) && x('contact:org', {}, p.org),
          shows(`addr:${p.type}`) &&
            x('contact:addr', {}, [
              ...p.street.map((s) => x('contact:street', {}, s)),
              x('contact:city', {}, p.city),
              p.sp && x('contact:sp', {}, p.sp),
              p.pc && x('contact:pc', {}, p.pc),
              x('contact:cc', {}, p.cc),
            ]),
        ]),
      ),
      phone('voice', contact.voice),
      phone('fax', contact.fax),
      shows('email') && x('contact:email', {}, contact.email),
      x('contact:clID', {}, contact.clID),
      x('contact:crID', {}, contact.crID),
      x('contact:crDate', {}, eppDate(contact.crDate)),
      contact.upID && x('contact:upID', {}, contact.upID),
      contact.upDate && x('contact:upDate', {}, eppDate(contact.upDate)),
      contact.trDate && x('contact:trDate', {}, eppDate(contact.trDate)),
      full && x('contact:authInfo', {}, [x('contact:pw', {}, contact.authInfo)]),
      full &&
        contact.hidden.length > 0 &&
        x('contact:disclose', { flag: '0' }, [
          ...contact.hidden.map((field) => {
            const [name, type] = field.split(':');
            return x(`contact:${name}`, { type });
          }),
        ]),
    ]),
  );
}

export function contactUpdate(ctx: Ctx): Reply {
  const body = ctx.cmd.body;
  const contact = find(ctx, textOf(body, C, 'id') as string);
  mustSponsor(ctx, contact, contact.id);
  const add = child(body, C, 'add');
  const rem = child(body, C, 'rem');
  const chg = child(body, C, 'chg');
  refuseIfStatus(contact.statuses, ['serverUpdateProhibited', 'pendingDelete', 'pendingTransfer'], 'update');
  const remStatuses = childrenNamed(rem, C, 'status');
  if (!(remStatuses.some((s) => s.attrs.s === 'clientUpdateProhibited') && !chg)) {
    refuseIfStatus(contact.statuses, ['clientUpdateProhibited'], 'update');
  }
  const next = structuredClone(contact);
  next.statuses = changeStatuses(contact.statuses, childrenNamed(add, C, 'status'), remStatuses, CONTACT_CLIENT_STATUSES);
  if (chg) {
    for (const e of childrenNamed(chg, C, 'postalInfo')) {
      const previous = next.postalInfo.find((p) => p.type === e.attrs.type);
      const updated = readPostal(e, previous);
      if (!updated.name || !updated.city || !updated.cc) fail(2003, `a new ${updated.type} postalInfo needs a name and an address`);
      next.postalInfo = [...next.postalInfo.filter((p) => p.type !== updated.type), updated];
    }
    const voice = child(chg, C, 'voice');
    if (voice) next.voice = readPhone(voice);
    const fax = child(chg, C, 'fax');
    if (fax) next.fax = readPhone(fax);
    next.email = textOf(chg, C, 'email') ?? next.email;
    const auth = child(chg, C, 'authInfo');
    if (auth) next.authInfo = textOf(auth, C, 'pw') ?? '';
    const disclose = child(chg, C, 'disclose');
    if (disclose) next.hidden = readDisclose(disclose);
  }
  Object.assign(contact, next, { upID: ctx.clID, upDate: ctx.now.toISOString() });
  return ok();
}

export function contactDelete(ctx: Ctx): Reply {
  const contact = find(ctx, textOf(ctx.cmd.body, C, 'id') as string);
  mustSponsor(ctx, contact, contact.id);
  refuseIfStatus(contact.statuses, ['clientDeleteProhibited', 'serverDeleteProhibited', 'pendingTransfer'], 'delete');
  const linked = linkedDomains(ctx, contact.id);
  if (linked.length) fail(2305, `${contact.id} is a contact of ${linked.map((d) => d.name).join(', ')}`, contact.id);
  delete ctx.state.data.contacts[contact.id];
  return ok();
}

export function contactTransfer(ctx: Ctx): Reply {
  const contact = find(ctx, textOf(ctx.cmd.body, C, 'id') as string);
  return transfer(ctx, {
    object: contact,
    given: textOf(child(ctx.cmd.body, C, 'authInfo'), C, 'pw'),
    years: 0,
    node: () => transferNode('contact', C, contact.id, contact.transfer),
    onApprove: () => {},
  });
}
