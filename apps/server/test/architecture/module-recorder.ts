/**
 * Loaded with `--import` by lazy-modules.test.ts: writes every module URL the process loads, one a
 * line, to the file named by RECORD_MODULES_TO.
 */
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.RECORD_MODULES_TO!;
registerHooks({
  load(url, context, next) {
    appendFileSync(file, `${url}\n`);
    return next(url, context);
  },
});
