import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localInstaller } from './installer-local.ts';

const request = (directory: string) => ({
  installationId: 1,
  reference: 'tienda.es',
  directory,
  url: 'https://tienda.es/app/',
  application: { id: 'notes', softName: 'Notes', version: '1.0', type: 'php' as const },
  inputs: {},
  secretInputs: [],
  database: null,
});

describe('the local application installer', () => {
  it('refuses a folder that leaves the web root through a link a customer made', async () => {
    const roots = mkdtempSync(path.join(tmpdir(), 'atalaya-install-'));
    const outside = mkdtempSync(path.join(tmpdir(), 'atalaya-outside-'));
    mkdirSync(path.join(roots, 'tienda.es'));
    symlinkSync(outside, path.join(roots, 'tienda.es', 'x'));
    await expect(localInstaller(roots).install(request('x/app'), async () => {})).rejects.toThrow(/link/);
    expect(existsSync(path.join(outside, 'app'))).toBe(false);
  });
});
