import { describe, expect, it } from 'vitest';
import { createDialogStack, createEscapeGate } from './escape.ts';

describe('the escape gate', () => {
  it('ignores a single press', () => {
    expect(createEscapeGate(200).press(1000)).toBe(false);
  });
  it('accepts a second press within 200 ms', () => {
    const gate = createEscapeGate(200);
    gate.press(1000);
    expect(gate.press(1150)).toBe(true);
  });
  it('refuses a second press after 200 ms and counts it as a new first press', () => {
    const gate = createEscapeGate(200);
    gate.press(1000);
    expect(gate.press(1300)).toBe(false);
    expect(gate.press(1400)).toBe(true);
  });
  it('needs two fresh presses after a confirmed one', () => {
    const gate = createEscapeGate(200);
    gate.press(0);
    gate.press(100);
    expect(gate.press(150)).toBe(false);
  });
});

describe('the dialog stack', () => {
  it('closes only the topmost dialog', () => {
    const stack = createDialogStack();
    const closed: string[] = [];
    stack.push(() => closed.push('first'));
    const second = stack.push(() => closed.push('second'));
    stack.closeTop();
    expect(closed).toEqual(['second']);
    stack.remove(second);
    stack.closeTop();
    expect(closed).toEqual(['second', 'first']);
  });
  it('does nothing when no dialog is open', () => {
    expect(createDialogStack().closeTop()).toBe(false);
  });
});
