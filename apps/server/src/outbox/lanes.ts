/**
 * The lanes of an item's jobs (decision 055). A job *holds* the lanes of the backends it changes
 * and *waits for* the earlier unfinished jobs of its item in the lanes it depends on (always its own
 * ones too); two jobs of one item apply in commit order, one at a time, only when one waits for a
 * lane the other holds. A certificate that cannot be ordered therefore never holds up the item's
 * registry change, zone change or mailbox; only what needs it waits.
 *
 * The rule, written down once:
 * - `registry`: registry changes (decision 038) keep their own order and wait for nothing else.
 * - `dns`: zone applies and DNSSEC steps, one order per zone (a step relies on the zone before it).
 * - `web`: the service's web set-up and its hosts (a host after the service's PHP and parking).
 * - `certificates`: an ACME order waits for the item's earlier host and zone changes (its host must
 *   be served and its names resolve before a validation comes), and for earlier orders; a host or
 *   a zone change never waits for an order.
 * - `sites.install` holds `web` (it writes into the web root the hosts serve) and waits for the
 *   databases queued before it, which it installs into.
 * - `ftp`: FTP accounts, after the web set-up that makes the web root their homes lie in.
 * - `mail` (mailboxes before their aliases, DKIM keys), `databases`, `usage` (a measurement).
 * - `backups` (appended last: the bits are stored): a snapshot holds it and waits for the web,
 *   mail and database changes queued before it (it backs up what they made); a restore holds it
 *   and every lane it writes (web root, mailboxes, databases, the zone), so no change of those
 *   runs while it swaps data in, and one queued after it applies over the restored data; a
 *   realm's prune holds it only.
 * - the whole item: a service move (decision 047/050), a node-restore's rebuild (decision 064) and every step of a termination (decision
 *   046) hold and wait for every lane: everything queued before applies first, everything queued
 *   after waits, whatever node applies it.
 * A kind not listed holds the whole item: a new kind is as ordered as before until it is placed.
 */
export const LANES = ['registry', 'dns', 'web', 'certificates', 'mail', 'ftp', 'databases', 'usage', 'webhooks', 'backups'] as const;
export type Lane = (typeof LANES)[number];

const bit = (lane: Lane) => 1 << LANES.indexOf(lane);
const mask = (lanes: readonly Lane[]) => lanes.reduce((m, lane) => m | bit(lane), 0);
/** Every lane: the whole item. */
export const WHOLE_ITEM = mask(LANES);

interface LaneRule {
  holds: readonly Lane[] | 'item';
  /** The lanes it waits for besides those it holds. */
  after?: readonly Lane[];
}

/** By the kind's name, the longest prefix first wins (`service.move` before `service.`). */
const RULES: Record<string, LaneRule> = {
  'registry.': { holds: ['registry'] },
  'dns.': { holds: ['dns'] },
  'service.web.': { holds: ['web'] },
  'sites.apply': { holds: ['web'] },
  // A zone's MX change handed to the sites area (kernel/hand-offs.ts): the policy site applied again.
  'sites.mta-sts.serve': { holds: ['web'] },
  'sites.acme.': { holds: ['certificates'], after: ['web', 'dns'] },
  'sites.install': { holds: ['web'], after: ['databases'] },
  'service.ftp.': { holds: ['ftp'], after: ['web'] },
  'service.mailbox.': { holds: ['mail'] },
  'service.alias.': { holds: ['mail'] },
  'service.dkim.': { holds: ['mail'] },
  'service.database.': { holds: ['databases'] },
  'service.usage.': { holds: ['usage'] },
  'service.move': { holds: 'item' },
  'service.rebuild': { holds: 'item' },
  'operator.terminate.': { holds: 'item' },
  'operator.webhook.': { holds: ['webhooks'] },
  'backups.snapshot': { holds: ['backups'], after: ['web', 'mail', 'databases'] },
  'backups.restore': { holds: ['backups', 'web', 'mail', 'databases', 'dns'] },
  'backups.prune': { holds: ['backups'] },
};
const PREFIXES = Object.keys(RULES).sort((a, b) => b.length - a.length);

/** The rule for a kind, or undefined when none names it (it then holds the whole item). */
export const laneRuleOf = (kind: string): LaneRule | undefined => {
  const prefix = PREFIXES.find((p) => kind.startsWith(p));
  return prefix === undefined ? undefined : RULES[prefix];
};

/** The job row's lane columns for a kind: `lanes` (bits it holds) and `after_lanes` (bits it waits for). */
export function laneColumns(kind: string): { lanes: number; after_lanes: number } {
  const rule = laneRuleOf(kind);
  if (!rule || rule.holds === 'item') return { lanes: WHOLE_ITEM, after_lanes: WHOLE_ITEM };
  const lanes = mask(rule.holds);
  return { lanes, after_lanes: lanes | mask(rule.after ?? []) };
}
