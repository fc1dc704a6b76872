import type { Ctx } from './context.ts';
import { addMonths, domainTransferNode } from './domains.ts';
import type { DomainObject, RegistryState } from './state.ts';

/**
 * What the registry does as its clock moves, without any command (run before each command and
 * after a test moves the clock), in the order a domain lives it:
 * - past its expiry date a domain is in its renewal grace period (rgp `autoRenewPeriod`): it still
 *   resolves and its sponsor may renew it from the old expiry date;
 * - at the end of the grace period the registry deletes it: `pendingDelete` with rgp
 *   `redemptionPeriod`, from which its sponsor may restore it (RFC 3915);
 * - after the redemption period it can no longer be restored (rgp `pendingDelete`), and after the
 *   pending-delete period it is purged and its name is free;
 * - a transfer nobody approved or rejected is approved by the server at its `acDate`.
 */
export function advanceLifecycle(ctx: Omit<Ctx, 'cmd' | 'clID'>): void {
  const now = ctx.now.getTime();
  const { renewGraceMs, redemptionMs, pendingDeleteMs } = ctx.policy;
  for (const domain of Object.values(ctx.state.data.domains)) {
    const t = domain.transfer;
    if (t?.status === 'pending' && Date.parse(t.acDate) <= now) serverApprove(ctx.state, domain, new Date(Date.parse(t.acDate)));
    if (!domain.deletedAt) {
      const expiry = Date.parse(domain.exDate);
      if (expiry + renewGraceMs <= now) {
        const deletedAt = new Date(expiry + renewGraceMs).toISOString();
        Object.assign(domain, { statuses: [{ s: 'pendingDelete' }], rgp: 'redemptionPeriod', deletedAt, upDate: deletedAt });
        domain.transfer = domain.transfer?.status === 'pending' ? undefined : domain.transfer;
      } else {
        domain.rgp = expiry <= now ? 'autoRenewPeriod' : undefined;
      }
    }
    if (domain.deletedAt && domain.rgp === 'redemptionPeriod' && Date.parse(domain.deletedAt) + redemptionMs <= now) {
      domain.rgp = 'pendingDelete';
    }
    if (domain.deletedAt && Date.parse(domain.deletedAt) + redemptionMs + pendingDeleteMs <= now) purge(ctx.state, domain);
  }
}

function purge(state: RegistryState, domain: DomainObject): void {
  for (const host of Object.values(state.data.hosts)) if (host.name.endsWith(`.${domain.name}`)) delete state.data.hosts[host.name];
  delete state.data.domains[domain.name];
}

/** Moves a domain to the client that asked for it: its new expiry, its subordinate hosts, its sponsor. */
export function completeDomainTransfer(state: RegistryState, domain: DomainObject, at: Date): void {
  const t = domain.transfer;
  if (!t) return;
  domain.exDate = addMonths(domain.exDate, t.years * 12);
  for (const host of Object.values(state.data.hosts)) if (host.name.endsWith(`.${domain.name}`)) host.clID = t.reID;
  domain.clID = t.reID;
  domain.trDate = at.toISOString();
  domain.statuses = domain.statuses.filter((s) => s.s !== 'pendingTransfer');
}

function serverApprove(state: RegistryState, domain: DomainObject, at: Date): void {
  const t = domain.transfer;
  if (!t) return;
  const losing = t.acID;
  t.status = 'serverApproved';
  completeDomainTransfer(state, domain, at);
  const node = () => domainTransferNode(domain);
  state.queue(t.reID, 'Transfer approved by the registry.', node(), at);
  state.queue(losing, 'Transfer approved by the registry.', node(), at);
}
