import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRegistry } from '../src/server.ts';
import { code, EppTestClient, registryFor, testCertificates } from './harness.ts';

const certs = testCertificates();
let registry: TestRegistry;
beforeAll(async () => {
  registry = await registryFor(certs);
});
afterAll(() => registry.close());

/** Connects and reports what happened: the first bytes the server sent, or the error that ended the connection. */
function attempt(options: {
  cert?: string;
  key?: string;
  maxVersion?: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  minVersion?: 'TLSv1' | 'TLSv1.1';
}) {
  return new Promise<{ data?: Buffer; error?: string }>((resolve) => {
    const socket = connect({ port: registry.port, host: '127.0.0.1', servername: 'localhost', ca: certs.ca, ...options });
    socket.once('data', (data) => {
      socket.destroy();
      resolve({ data });
    });
    socket.once('error', (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    socket.once('close', () => resolve({ error: 'closed' }));
  });
}

describe('TLS with required client certificates (RFC 5734)', () => {
  it('greets a client whose certificate the CA signed', async () => {
    const client = await EppTestClient.open(registry.port, certs.client, certs.ca);
    expect(client.greeting).toContain('<greeting>');
    expect(code(await client.login())).toBe(1000);
    client.close();
  });

  it('refuses a client without a certificate before any EPP is spoken', async () => {
    const result = await attempt({});
    expect(result.data).toBeUndefined();
    expect(result.error).toBeTruthy();
  });

  it('refuses a client whose certificate another authority signed (or nobody did)', async () => {
    const result = await attempt({ cert: certs.stranger.cert, key: certs.stranger.key });
    expect(result.data).toBeUndefined();
    expect(result.error).toBeTruthy();
  });

  it('refuses TLS older than 1.2', async () => {
    const result = await attempt({ cert: certs.client.cert, key: certs.client.key, maxVersion: 'TLSv1.1', minVersion: 'TLSv1' });
    expect(result.data).toBeUndefined();
    expect(result.error).toBeTruthy();
  });
});
