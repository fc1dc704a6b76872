import type { RegistryMessage } from '../interface.ts';
import type { EppCommand } from './command.ts';
import { readTransferData } from './transfers.ts';
import { attr, child, list, text, type XmlNode } from './xml.ts';

/** RFC 5730 §2.9.2.3: the head of the client's message queue; sent again safely (it changes nothing). */
export const pollRequest = (): EppCommand => ({ name: 'poll', read: true, node: { poll: { '@_op': 'req' } } });

/** Removes a message from the queue; sent again after a lost answer, a 2303 then says it is gone already. */
export const pollAck = (id: string): EppCommand => ({ name: 'poll', read: true, node: { poll: { '@_op': 'ack', '@_msgID': id } } });

/**
 * What the panel reads of a message: a pending action's outcome (RFC 5731 §3.3, 5733 `panData`:
 * the object, whether it was applied, and the clTRID of the command that asked for it) or a
 * transfer notice (`trnData`) or a domain's data the registry changed (`infData`, a server status
 * set or lifted). Anything else is left to the operator with its XML.
 */
export function readPollMessage(
  resData: XmlNode | undefined,
  head: { id: string; count: number; qDate: string; msg: string },
  xml: string,
  clientId = '',
): RegistryMessage {
  const base = { id: head.id, count: head.count, queuedAt: head.qDate, text: head.msg, xml };
  const pan = child(resData, 'panData');
  if (pan) {
    const name = child(pan, 'name') ?? child(pan, 'id');
    const trID = child(pan, 'paTRID');
    return {
      ...base,
      kind: 'pending',
      object: text(name),
      applied: attr(name, 'paResult') === '1' || attr(name, 'paResult') === 'true',
      clTRID: text(child(trID, 'clTRID')),
      svTRID: text(child(trID, 'svTRID')),
    };
  }
  const transfer = child(resData, 'trnData');
  if (transfer) {
    return {
      ...base,
      kind: 'transfer',
      object: text(child(transfer, 'name')),
      status: text(child(transfer, 'trStatus')),
      requestedBy: text(child(transfer, 'reID')),
      state: readTransferData(resData, clientId),
    };
  }
  // A domain's own data (RFC 5731 infData) in a notice: the registry changed something of it,
  // most often a status only it may set.
  const info = child(resData, 'infData');
  if (info && child(info, 'roid')) {
    return { ...base, kind: 'status', object: text(child(info, 'name')), statuses: list(info, 'status').map((s) => attr(s, 's')) };
  }
  return { ...base, kind: 'unknown' };
}
