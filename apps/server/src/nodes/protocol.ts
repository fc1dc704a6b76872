/**
 * What the panel and an agent say over the agent's WebSocket (decision 040), one JSON object per
 * message. The panel's worker runs each node job's handler as on one machine; every driver call
 * the handler makes goes to the node's agent as a `call`, which answers it with a `result` on the
 * same connection. The agent starts with `hello`: its version and the plain values its drivers
 * expose (a database driver's name prefix).
 */
export type AgentMessage =
  | { type: 'hello'; version: string; properties: Record<string, Record<string, string | number | boolean>> }
  | { type: 'result'; id: number; ok: true; value?: unknown }
  | { type: 'result'; id: number; ok: false; error: string; permanent: boolean; key?: string }
  | { type: 'progress'; id: number; percent: number };

export type PanelMessage = { type: 'call'; id: number; job: number; area: string; method: string; args: unknown[] };

/** The driver areas a node's agent applies; DNS and the registry stay with the panel. */
export const NODE_AREAS = ['web', 'mail', 'ftp', 'databases', 'sites', 'installer'] as const;

/** Stands for a progress callback among a call's arguments: the agent sends `progress` messages for it. */
export const PROGRESS_ARG = { $progress: true } as const;
export type NodeArea = (typeof NODE_AREAS)[number];
/** A node area, or the agent's own `transfer` (a moved service's files, agent/files.ts). */
export type RemoteArea = NodeArea | 'transfer';

/** The agent's path on the node port, and the enrolment's. */
export const AGENT_PATH = '/agent';
export const ENROL_PATH = '/enrol';
/** The panel's CA certificate, public: an enrolling agent checks it against its token's fingerprint. */
export const CA_PATH = '/ca';

/**
 * What a move copies from one node to another: a service's web root, or one mailbox's home. The
 * agent resolves each to a folder of its own configuration, so the panel never names a path on
 * the node.
 */
export type ServicePart = { kind: 'web'; reference: string } | { kind: 'mail'; address: string };

/** The most one `transfer.read` answers: a chunk crosses the link as base64 inside one JSON message. */
export const CHUNK_BYTES = 1024 * 1024;
