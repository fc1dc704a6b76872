import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEnv, startFlags } from './processes.ts';

const DEPLOY = readFileSync(path.resolve(import.meta.dirname, '../docs/deploy.md'), 'utf8');

describe("the server's Node flags", () => {
  it('turn allocation-site pretenuring off, so no process starts into its slow state (decision 024)', () => {
    expect(startFlags()).toContain('--no-allocation-site-pretenuring');
    expect(startFlags()).toContain('--max-semi-space-size=4');
  });

  it("are the same in docs/deploy.md's systemd unit as in npm start", () => {
    const execStart = /^ExecStart=\S+\/node (.*) apps\/server\/src\/server\.ts$/m.exec(DEPLOY);
    expect(execStart?.[1].split(' ')).toEqual(startFlags());
  });
});

describe("the server's environment from npm start", () => {
  it('keeps glibc to two malloc arenas, so memory a load took is reused rather than kept per thread (decision 060)', () => {
    expect(startEnv()).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(startFlags()[0]).toMatch(/^--/);
  });

  it("is set by docs/deploy.md's systemd unit too", () => {
    for (const [name, value] of Object.entries(startEnv())) expect(DEPLOY).toContain(`Environment=${name}=${value}\n`);
  });
});
