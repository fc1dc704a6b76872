import { type Ctx, eppDate, ok, type Reply, refuseIfStatus } from './context.ts';
import { fail } from './results.ts';
import type { Status, Transfer } from './state.ts';
import { x } from './xml.ts';

/**
 * Transfers of a sponsored object (RFC 5730 section 2.9.3.4): a request by another client with the
 * object's authorisation code is pending until the sponsor approves or rejects it, or the requester
 * cancels it; each step queues a poll message for the other side.
 */
export interface Transferable {
  clID: string;
  statuses: Status[];
  authInfo: string;
  transfer?: Transfer;
  trDate?: string;
  upDate?: string;
}

export function transferNode(prefix: string, ns: string, key: string, transfer: Transfer | undefined, exDate?: string) {
  if (!transfer) return undefined;
  return x(`${prefix}:trnData`, { [`xmlns:${prefix}`]: ns }, [
    x(`${prefix}:${prefix === 'contact' ? 'id' : 'name'}`, {}, key),
    x(`${prefix}:trStatus`, {}, transfer.status),
    x(`${prefix}:reID`, {}, transfer.reID),
    x(`${prefix}:reDate`, {}, eppDate(transfer.reDate)),
    x(`${prefix}:acID`, {}, transfer.acID),
    x(`${prefix}:acDate`, {}, eppDate(transfer.acDate)),
    exDate && x(`${prefix}:exDate`, {}, eppDate(exDate)),
  ]);
}

interface Options {
  object: Transferable;
  given?: string;
  years: number;
  /** When the server approves a transfer nobody acted on (`acDate`); at once when not given. */
  approveAfterMs?: number;
  node: () => ReturnType<typeof transferNode>;
  /** What approval does besides changing the sponsor (a domain's expiry and its subordinate hosts). */
  onApprove: (newSponsor: string) => void;
}

export function transfer(ctx: Ctx, options: Options): Reply {
  const { object, given } = options;
  const op = ctx.cmd.op as string;
  const now = ctx.now.toISOString();
  const t = object.transfer;
  const pending = t?.status === 'pending';
  const notify = (clID: string, msg: string) => ctx.state.queue(clID, msg, options.node(), ctx.now);
  if (op === 'query') {
    // The losing client (acID) stays a party after the object has left it, so it can read how its transfer ended.
    const involved =
      object.clID === ctx.clID || t?.reID === ctx.clID || t?.acID === ctx.clID || (given !== undefined && given === object.authInfo);
    if (!involved) fail(2201, 'only the sponsor, the parties to the transfer or a client with the authorisation code may query a transfer');
    if (!t) fail(2301, 'no transfer was requested');
    return ok(options.node());
  }
  if (op === 'request') {
    if (object.clID === ctx.clID) fail(2106, 'the object is already sponsored by this client');
    if (pending) fail(2300, 'a transfer is already pending');
    refuseIfStatus(object.statuses, ['clientTransferProhibited', 'serverTransferProhibited', 'pendingDelete', 'pendingUpdate'], 'transfer');
    if (given === undefined || given !== object.authInfo) fail(2202, 'the authorisation code is wrong');
    const acDate = new Date(ctx.now.getTime() + (options.approveAfterMs ?? 0)).toISOString();
    object.transfer = { status: 'pending', reID: ctx.clID, reDate: now, acID: object.clID, acDate, years: options.years };
    object.statuses = [...object.statuses, { s: 'pendingTransfer' }];
    notify(object.clID, 'Transfer requested.');
    return { code: 1001, resData: options.node() };
  }
  if (!pending || !t) return fail(2301, 'no transfer is pending');
  if (op === 'cancel') {
    if (t.reID !== ctx.clID) fail(2201, 'only the requesting client may cancel a transfer');
  } else if (object.clID !== ctx.clID) {
    fail(2201, 'only the sponsoring client may approve or reject a transfer');
  }
  t.status = op === 'approve' ? 'clientApproved' : op === 'reject' ? 'clientRejected' : 'clientCancelled';
  t.acDate = now;
  object.statuses = object.statuses.filter((s) => s.s !== 'pendingTransfer');
  if (op === 'approve') {
    options.onApprove(t.reID);
    object.clID = t.reID;
    object.trDate = now;
  }
  notify(
    op === 'cancel' ? t.acID : t.reID,
    `Transfer ${t.status === 'clientApproved' ? 'approved' : t.status === 'clientRejected' ? 'rejected' : 'cancelled'}.`,
  );
  return ok(options.node());
}
