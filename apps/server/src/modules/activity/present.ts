import type { ActivityChange, ActivityEvent } from '@atalaya/contract';
import type { EventRow } from './query.ts';

const parseChanges = (text: string): ActivityChange[] => {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
};

/** Who acted, as the page shows it: the user's name, the token's name, or `cli`. */
function actorOf(row: EventRow): ActivityEvent['actor'] {
  if (row.actor === 'cli') return { kind: 'cli', name: 'cli' };
  if (row.actor === 'token') return { kind: 'token', name: row.token_name };
  if (row.actor === 'operator') return { kind: 'operator', name: row.token_name };
  return { kind: 'user', name: row.username ?? '' };
}

/** A row of the log → the event the Activity page lists. */
export function presentEvent(row: EventRow): ActivityEvent {
  return {
    id: row.id,
    at: row.at,
    actor: actorOf(row),
    ip: row.ip,
    agent: row.agent,
    item: row.item_id === null ? null : { id: row.item_id, reference: row.reference },
    area: row.area,
    action: row.action,
    outcome: row.outcome,
    changes: parseChanges(row.changes),
  };
}

/** A row of the log → one JSON line of `admin audit`: everything, the realm and the token id included. */
export function exportEvent(row: EventRow, realm: string | null) {
  return { ...presentEvent(row), realm, tokenId: row.token_id, detail: JSON.parse(row.detail || '{}') };
}
