import type { ParseArgsConfig } from 'node:util';
import type { Runtime } from '../kernel/runtime.ts';
import type { CommandActivity } from './activity.ts';

/** What every `npm run admin` command is: the table in commands.ts and the command files it gathers share it. */
export type Values = Record<string, string | boolean | undefined>;
export interface Command {
  args: string[];
  help: string;
  options?: ParseArgsConfig['options'];
  run(runtime: Runtime, args: string[], values: Values): Promise<void>;
  /** A command that changes something is recorded in the activity log with actor `cli` (decision 023). */
  activity?: CommandActivity | ((args: string[], values: Values) => CommandActivity | undefined);
}
