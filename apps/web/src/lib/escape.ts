/**
 * Escape handling for dialogs (docs/behaviour/shell-session-domains.md#states): only the topmost dialog reacts, and only to a second
 * press within the window, so a stray key does not throw away a half-filled form.
 */
export function createEscapeGate(windowMs: number) {
  let lastPress = Number.NEGATIVE_INFINITY;
  return {
    /** True when this press completes a double press. */
    press(now: number): boolean {
      const confirmed = now - lastPress <= windowMs;
      lastPress = confirmed ? Number.NEGATIVE_INFINITY : now;
      return confirmed;
    },
  };
}

/** The open dialogs, oldest first; each registers its close callback while it is open. */
export function createDialogStack() {
  const stack: symbol[] = [];
  const closers = new Map<symbol, () => void>();
  return {
    push(close: () => void): symbol {
      const id = Symbol('dialog');
      stack.push(id);
      closers.set(id, close);
      return id;
    },
    remove(id: symbol) {
      const index = stack.indexOf(id);
      if (index >= 0) stack.splice(index, 1);
      closers.delete(id);
    },
    closeTop(): boolean {
      const top = stack.at(-1);
      if (!top) return false;
      closers.get(top)?.();
      return true;
    },
    get size() {
      return stack.length;
    },
  };
}
