import { vi } from 'vitest';
import type { Values } from '../src/cli/command.ts';
import { COMMANDS } from '../src/cli/commands.ts';
import type { Runtime } from '../src/kernel/runtime.ts';

/** Runs one admin command in this process, as `npm run admin` would, and answers what it printed. */
export async function runAdmin(runtime: Runtime, name: string, args: string[], values: Values = {}) {
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => printed.push(line));
  try {
    await COMMANDS[name].run(runtime, args, values);
  } finally {
    log.mockRestore();
  }
  return printed.join('\n');
}
