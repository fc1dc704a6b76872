import { describe, expect, it } from 'vitest';
import { ipValid, typeIp } from './ipInput.ts';

const typed = (keys: string) => [...keys].reduce((text, key) => typeIp(text, text + key), '');

describe('the IP input', () => {
  it('adds a dot after three digits and keeps typing flowing', () => {
    expect(typed('19216801')).toBe('192.168.01');
    expect(typed('192.168.1.10')).toBe('192.168.1.10');
    expect(typed('255255255255')).toBe('255.255.255.255');
  });

  it('strips letters and refuses a fourth digit in a group or a fifth group', () => {
    expect(typed('1a2b')).toBe('12');
    expect(typeIp('1234'.slice(0, 3), '1234')).toBe('123');
    expect(typeIp('1.2.3.4', '1.2.3.4.')).toBe('1.2.3.4');
    expect(typeIp('1.2.3.456', '1.2.3.4567')).toBe('1.2.3.456');
  });

  it('lets the user delete a dot without adding it back', () => {
    expect(typeIp('192.', '192')).toBe('192');
  });

  it('validates complete addresses, and one to three groups in partial mode', () => {
    expect(ipValid('192.168.1.1')).toBe(true);
    expect(ipValid('192.168.1.256')).toBe(false);
    expect(ipValid('192.168')).toBe(false);
    expect(ipValid('192.168', true)).toBe(true);
    expect(ipValid('', false)).toBe(true);
  });
});
