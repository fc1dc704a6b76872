import { attr, child, list, readEpp, text, type XmlNode } from './xml.ts';

/** What every EPP response carries (RFC 5730 §2.6), plus the parts the commands read. */
export interface EppResponse {
  code: number;
  /** The registry's own words for the result, first <msg>, with any <value>/<extValue> reason after it. */
  message: string;
  clTRID: string;
  svTRID: string;
  resData: XmlNode | undefined;
  extension: XmlNode | undefined;
  /** The message queue's head (RFC 5730 §2.6): on every response when messages wait, with its text on `poll req`. */
  msgQ: { id: string; count: number; qDate: string; msg: string } | null;
  /** The response as received, for a poll message the panel cannot read (kept for the operator). */
  xml: string;
}

export function readResponse(xml: string): EppResponse {
  const epp = readEpp(xml);
  const response = child(epp, 'response');
  if (!response) throw new Error('epp: expected a <response>');
  const [result] = list(response, 'result');
  const code = Number(attr(result, 'code'));
  if (!Number.isInteger(code)) throw new Error('epp: a response without a result code');
  const reasons = list(result, 'extValue')
    .map((ext) => text(child(ext, 'reason')))
    .filter(Boolean);
  const message = [text(child(result, 'msg')), ...reasons].filter(Boolean).join(': ');
  const trID = child(response, 'trID');
  const queue = child(response, 'msgQ');
  return {
    msgQ: queue
      ? {
          id: attr(queue, 'id'),
          count: Number(attr(queue, 'count')) || 0,
          qDate: text(child(queue, 'qDate')),
          msg: text(child(queue, 'msg')),
        }
      : null,
    xml,
    code,
    message,
    clTRID: text(child(trID, 'clTRID')),
    svTRID: text(child(trID, 'svTRID')),
    resData: child(response, 'resData'),
    extension: child(response, 'extension'),
  };
}

/** RFC 5730 §3: 1xxx succeeded (1001: accepted, pending), 2xxx failed. */
export const succeeded = (code: number) => code >= 1000 && code < 2000;

/** 2500–2502: the registry ended the session; the command did not run and the session is gone. */
export const closesSession = (code: number) => code >= 2500 && code <= 2502;

/** The greeting's service menu (RFC 5730 §2.4). */
export interface Greeting {
  serverId: string;
  versions: string[];
  langs: string[];
  objURIs: string[];
  extURIs: string[];
}

export function readGreeting(xml: string): Greeting {
  const greeting = child(readEpp(xml), 'greeting');
  if (!greeting) throw new Error('epp: expected a <greeting>');
  const menu = child(greeting, 'svcMenu');
  return {
    serverId: text(child(greeting, 'svID')),
    versions: list(menu, 'version').map(text),
    langs: list(menu, 'lang').map(text),
    objURIs: list(menu, 'objURI').map(text),
    extURIs: list(child(menu, 'svcExtension'), 'extURI').map(text),
  };
}
