import { z } from 'zod';

/**
 * What the panel and an agent say over the agent's WebSocket (decision 040), one JSON object per
 * message. The panel's worker runs each node job's handler as on one machine; every driver call
 * the handler makes goes to the node's agent as a `call`, which answers it with a `result` on the
 * same connection. The agent starts with `hello`: its version and the plain values its drivers
 * expose (a database driver's name prefix).
 *
 * The panel parses every agent message with this schema before reading a field (issue 44): a
 * machine holding a node's certificate is still outside the panel, and a message of another
 * shape closes its connection rather than reaching code that expects this one.
 */
const callId = z.number().int().nonnegative();
export const agentMessageSchema = z.union([
  z.object({
    type: z.literal('hello'),
    version: z.string(),
    properties: z.record(z.string(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))),
  }),
  z.object({ type: z.literal('result'), id: callId, ok: z.literal(true), value: z.unknown().optional() }),
  z.object({
    type: z.literal('result'),
    id: callId,
    ok: z.literal(false),
    error: z.string(),
    permanent: z.boolean(),
    key: z.string().optional(),
  }),
  // A percent that was not a number (NaN, say) arrives as null: JSON has no other way to write it.
  z.object({ type: z.literal('progress'), id: callId, percent: z.number().nullable() }),
]);
export type AgentMessage = z.infer<typeof agentMessageSchema>;

export type PanelMessage = { type: 'call'; id: number; job: number; area: string; method: string; args: unknown[] };

/** The driver areas a node's agent applies; DNS and the registry stay with the panel. */
export const NODE_AREAS = ['web', 'mail', 'ftp', 'databases', 'sites', 'installer', 'backups'] as const;

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
