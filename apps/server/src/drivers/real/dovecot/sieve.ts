import type { Autoresponder, Forwarding } from '../../mail/interface.ts';
import { mailAddress } from '../common/names.ts';

/** A Sieve quoted string: only `"` and `\` are special (RFC 5228 2.4.2). */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The account's Sieve script: forwarding as `redirect` (`:copy` when a copy stays in the mailbox)
 * and the autoresponder as `vacation`, limited to its dates with `currentdate`. Null when the
 * account needs no script, so the file can be removed and delivery is plain again.
 */
export function sieveScript(autoresponder: Autoresponder | null, forward: Forwarding | null): string | null {
  const needs = new Set<string>();
  const body: string[] = [];
  if (autoresponder) {
    needs.add('vacation');
    const days = Math.max(1, Math.floor(autoresponder.days));
    // The subject is a header: a line break there would forge another one.
    const subject = autoresponder.subject.replace(/[\r\n]+/g, ' ');
    const vacation = `vacation :days ${days} :subject ${quoted(subject)} ${quoted(autoresponder.text.replace(/\r?\n/g, '\r\n'))};`;
    const tests: string[] = [];
    for (const [bound, op] of [
      [autoresponder.start, 'ge'],
      [autoresponder.end, 'le'],
    ] as const) {
      if (bound === null) continue;
      if (!DAY.test(bound)) throw new Error('autoresponder date is not YYYY-MM-DD');
      needs.add('date').add('relational');
      tests.push(`currentdate :value ${quoted(op)} "date" ${quoted(bound)}`);
    }
    body.push(tests.length ? `if allof (${tests.join(', ')}) {\r\n  ${vacation}\r\n}` : vacation);
  }
  if (forward?.targets.length) {
    if (forward.keepCopy) needs.add('copy');
    for (const target of forward.targets) {
      const { local, domain } = mailAddress(target);
      body.push(`redirect${forward.keepCopy ? ' :copy' : ''} ${quoted(`${local}@${domain}`)};`);
    }
  }
  if (!body.length) return null;
  // `require []` is no valid Sieve: plain redirects need no extension at all.
  const require = needs.size ? `require [${[...needs].map(quoted).join(', ')}];\r\n` : '';
  return `${require}${body.join('\r\n')}\r\n`;
}
