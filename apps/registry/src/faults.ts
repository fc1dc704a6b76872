/**
 * Faults a test asks for (through the module API or the loopback control interface). `commands`
 * narrows a fault to command keys (`login`, `hello`, `poll`, `domain:update`, …; `<hello>` is hit
 * only when named); `count` is how many commands it hits (1 when not given).
 */
export interface Faults {
  /** Drop the connection: `before` the command is applied, or `mid-response` after it was (half a frame is sent). */
  drop?: { when: 'before' | 'mid-response'; count?: number; commands?: string[] };
  /** Answer with this code instead of running the command (2400, or 2500–2502, which also close the session). */
  answer?: { code: number; count?: number; commands?: string[] };
  /** Wait this long before answering each command. */
  delayMs?: number;
  /** Logged-in sessions allowed per client; a login beyond gets 2502 and the connection is closed. */
  maxSessions?: number;
  /** At most `commands` per `perMs` per client: `refuse` answers 2502 and closes, `queue` holds the command until it fits. */
  rateLimit?: { commands: number; perMs: number; mode: 'refuse' | 'queue' };
  /** Commands answered 1001 and completed later (`completePending`), e.g. `domain:update`. */
  pending?: string[];
  /**
   * Commands held unanswered until the test releases them (`releaseHeld`); every other command,
   * reads included, answers at once on the other sessions. A held command blocks its own session,
   * as a slow registry would.
   */
  hold?: string[];
}

const FAULT_KEYS = ['drop', 'answer', 'delayMs', 'maxSessions', 'rateLimit', 'pending', 'hold'];

/** Checks a fault plan from the control interface; returns what is wrong, or null. */
export function faultsProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a JSON object is expected';
  const plan = value as Record<string, unknown>;
  const unknown = Object.keys(plan).find((key) => !FAULT_KEYS.includes(key));
  if (unknown) return `unknown fault '${unknown}' (known: ${FAULT_KEYS.join(', ')})`;
  const drop = plan.drop as Faults['drop'];
  if (drop && drop.when !== 'before' && drop.when !== 'mid-response') return "drop.when is 'before' or 'mid-response'";
  const answer = plan.answer as Faults['answer'];
  if (answer && ![2400, 2500, 2501, 2502].includes(answer.code)) return 'answer.code is 2400, 2500, 2501 or 2502';
  const rate = plan.rateLimit as Faults['rateLimit'];
  if (rate && (!(rate.commands > 0) || !(rate.perMs > 0) || (rate.mode !== 'refuse' && rate.mode !== 'queue'))) {
    return "rateLimit needs commands > 0, perMs > 0 and mode 'refuse' or 'queue'";
  }
  const hold = plan.hold;
  if (hold !== undefined && (!Array.isArray(hold) || hold.length === 0 || !hold.every((key) => typeof key === 'string' && key !== ''))) {
    return "hold is a list of command keys, e.g. ['domain:update']";
  }
  return null;
}

/** Whether a counted fault hits this command, using one of its shots when it does. */
export function takeShot(fault: { count?: number; commands?: string[] } | undefined, key: string): boolean {
  if (!fault) return false;
  // A keep-alive `<hello>` is not a command: only a fault that names it hits it.
  if (fault.commands ? !fault.commands.includes(key) : key === 'hello') return false;
  const left = fault.count ?? 1;
  if (left <= 0) return false;
  fault.count = left - 1;
  return true;
}
