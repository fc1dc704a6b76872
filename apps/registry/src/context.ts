import { fail } from './results.ts';
import type { RegistryState, Status } from './state.ts';
import type { Element, Node } from './xml.ts';

/** What the registry enforces beyond the grammar (set on the command line or by a test). */
export interface Policy {
  /** Name servers a delegated domain must have, and may have (a domain with none is `inactive`). */
  nsMin: number;
  nsMax: number;
  /** `objects`: name servers are host objects (`hostObj`); `attributes`: `hostAttr` with addresses. */
  hostModel: 'objects' | 'attributes';
  registrantRequired: boolean;
  maxYears: number;
  /** How long an expired domain can still be renewed before the registry deletes it. */
  renewGraceMs: number;
  /** How long a transfer waits for the sponsor before the registry approves it. */
  transferApproveMs: number;
  /** RFC 3915: how long a deleted domain can be restored, then how long it waits before it is purged. */
  redemptionMs: number;
  pendingDeleteMs: number;
  dsMax: number;
}

export const DEFAULT_POLICY: Policy = {
  nsMin: 2,
  nsMax: 13,
  hostModel: 'objects',
  registrantRequired: true,
  maxYears: 10,
  renewGraceMs: 45 * 86_400_000,
  transferApproveMs: 5 * 86_400_000,
  redemptionMs: 30 * 86_400_000,
  pendingDeleteMs: 5 * 86_400_000,
  dsMax: 13,
};

/** A command as the handlers see it: its verb, object element (e.g. `<domain:create>`) and extensions. */
export interface Command {
  verb: string;
  object: 'domain' | 'host' | 'contact';
  body: Element;
  op?: string;
  extensions: Element[];
  clTRID?: string;
}

export interface Ctx {
  clID: string;
  state: RegistryState;
  policy: Policy;
  now: Date;
  cmd: Command;
}

export interface Reply {
  code: number;
  resData?: Node;
  extension?: Node[];
}

export const ok = (resData?: Node, extension?: Node[]): Reply => ({ code: 1000, resData, extension });

export const CLIENT_STATUSES = [
  'clientDeleteProhibited',
  'clientHold',
  'clientRenewProhibited',
  'clientTransferProhibited',
  'clientUpdateProhibited',
];

export const has = (statuses: Status[], s: string) => statuses.some((status) => status.s === s);

/** 2304 when any of these statuses is set on the object. */
export function refuseIfStatus(statuses: Status[], blocking: string[], action: string): void {
  const found = statuses.find((status) => blocking.includes(status.s));
  if (found) fail(2304, `${found.s} prohibits ${action}`, found.s);
}

/** 2201 unless the client sponsors the object. */
export function mustSponsor(ctx: Ctx, object: { clID: string }, what: string): void {
  if (object.clID !== ctx.clID) fail(2201, `${what} is sponsored by another client`, what);
}

/**
 * Adds and removes client statuses (RFC 5731–5733: a client may set only `client*` ones): adding one
 * already set, or removing one not set, is a 2306.
 */
export function changeStatuses(statuses: Status[], add: Element[], rem: Element[], allowed: string[]): Status[] {
  let next = [...statuses];
  for (const e of rem) {
    const s = e.attrs.s;
    if (!has(next, s)) fail(2306, `status ${s} is not set`, s);
    next = next.filter((status) => status.s !== s);
  }
  for (const e of add) {
    const s = e.attrs.s;
    if (!allowed.includes(s)) fail(2306, `a client may not set status ${s}`, s);
    if (has(next, s)) fail(2306, `status ${s} is already set`, s);
    next.push({ s, lang: e.attrs.lang, text: e.text || undefined });
  }
  return next;
}

export const statusNodes = (prefix: string, statuses: Status[]) =>
  statuses.map((status) => ({ name: `${prefix}:status`, attrs: { s: status.s, lang: status.lang }, text: status.text ?? '' }));

/** An ISO date-time as EPP shows it (`2026-11-27T10:00:00.0Z`). */
export const eppDate = (iso: string) => iso.replace(/\.\d{3}Z$/, '.0Z');
