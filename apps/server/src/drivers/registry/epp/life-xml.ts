import type { RestoreReport } from '../interface.ts';
import { dayOf } from '../lifecycle.ts';
import { type EppCommand, objectCommand } from './command.ts';
import { domainUpdate } from './domain-xml.ts';
import { attr, child, list, NS, type XmlNode } from './xml.ts';

/** RFC 5731 §3.2.3 renew and RFC 3915 restore: the commands of a domain's life and the rgp status info shows. */

export const domainRenew = (name: string, curExpDate: number, years: number): EppCommand =>
  objectCommand('renew', 'domain', {
    'domain:name': name,
    'domain:curExpDate': dayOf(curExpDate),
    'domain:period': { '#text': String(years), '@_unit': 'y' },
  });

/** The <rgp:rgpStatus> of a domain:info answer's extension, '' when the domain is in none. */
export function readRgpStatus(extension: XmlNode | undefined): string {
  // rgp:infData and secDNS:infData read alike once prefixes are gone: take the one with an rgpStatus.
  const data = list(extension, 'infData').find((d) => child(d, 'rgpStatus'));
  return data ? attr(child(data, 'rgpStatus'), 's') : '';
}

const eppTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '.0Z');

/** RFC 3915 §4.2.5: `request`, then `report` with what the registry keeps of the restore. */
export function domainRestore(name: string, report?: RestoreReport): EppCommand {
  const restore: XmlNode = { '@_op': report ? 'report' : 'request' };
  if (report) {
    restore['rgp:report'] = {
      'rgp:preData': `${name} as it was when it was deleted`,
      'rgp:postData': `${name} as restored, unchanged`,
      'rgp:delTime': eppTime(report.deletedAt),
      'rgp:resTime': eppTime(report.restoredAt),
      'rgp:resReason': report.reason,
      'rgp:statement': [
        'The registrar has not restored the domain in order to assume the rights to use or sell it for itself or for any third party.',
        "The information in this report is true to the best of the registrar's knowledge.",
      ],
      'rgp:other': `Requested by ${report.by}`,
    };
  }
  // RFC 3915's examples send an empty <domain:chg/>: the update itself changes nothing.
  const command = domainUpdate(name, {}, { 'rgp:update': { '@_xmlns:rgp': NS.rgp, 'rgp:restore': restore } });
  const verb = (command.node.update as XmlNode)['domain:update'] as XmlNode;
  verb['domain:chg'] = '';
  return command;
}
