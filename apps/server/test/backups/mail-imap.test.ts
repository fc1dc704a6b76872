import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, missingBinaries } from '../backends/harness/common.ts';
import { DOVEADM, DOVECOT, type DovecotHarness, POSTMAP, startDovecot } from '../backends/harness/dovecot.ts';
import { exec } from '../backends/http.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { type Account, backupAccount, call, drainAll } from './area.ts';
import { fetchedLiteral, imapSession, listedFolders } from './imap.ts';

const skip = missingBinaries(DOVECOT, DOVEADM, POSTMAP, '/usr/lib/dovecot/imap', '/usr/bin/restic');
const ADDRESS = 'ventas@tienda.test';
const PASSWORD = 'Correo-backup-1!';
const MESSAGE = 'From: cliente@example.org\r\nTo: ventas@tienda.test\r\nSubject: Pedido 42\r\n\r\nTres cajas, por favor.\r\n';

/**
 * A mail folder lost and given back: a real Dovecot serves the mailbox the panel made, the panel
 * backs it up through its API and worker, the folder is deleted over IMAP, and each restore (a
 * copy beside it, then in place) is read back over IMAP from the running Dovecot, never restarted.
 */
describe.skipIf(skip)('mail restores read over IMAP', () => {
  describeStores('a mail folder restored from a backup and read over IMAP on %s', (kind) => {
    let h: DovecotHarness;
    let ctx: TestContext;
    let acc: Account;
    let id: number;
    let backupId: number;
    let original: Buffer;
    const imap = (commands: string[]) => imapSession(h.imapPort, ADDRESS, PASSWORD, commands);
    const restore = (target: 'copy' | 'replace') =>
      call(ctx, acc, 'admin', `/service/${id}/backups/${backupId}/restore/`, {
        part: 'mail',
        path: `/${ADDRESS}/Maildir/.Pedidos`,
        target,
      });
    const restored = async (restoreId: number) =>
      (await call(ctx, acc, 'admin', `/service/${id}/backups/`)).body.data.restores.find((r: { id: number }) => r.id === restoreId);
    const maildir = () => path.join(String(h.options.mailRoot), 'tienda.test/ventas/Maildir');

    beforeAll(async () => {
      h = await startDovecot();
      // The panel's mail driver writes the files this Dovecot reads; the backups find the homes under its mailRoot.
      ctx = await openTestApp(kind, { 'drivers.mail': { driver: 'dovecot', ...h.backend.options } });
      acc = await backupAccount(ctx);
      id = acc.items['tienda.test'];
      const made = await call(ctx, acc, 'admin', `/service/${id}/correo/create/`, { name: 'ventas', password: PASSWORD });
      expect(made.status).toBe(200);
      await drainAll(ctx);
      await eventually(async () => (await exec(DOVEADM, ['-c', h.conf, 'auth', 'test', ADDRESS, PASSWORD])).code === 0, 5_000);
      // Dovecot itself makes and subscribes the folder and saves the message, in its own formats.
      const folder = await exec(DOVEADM, ['-c', h.conf, 'mailbox', 'create', '-s', '-u', ADDRESS, 'Pedidos']);
      expect(folder.code, folder.stderr).toBe(0);
      const saved = await exec(DOVEADM, ['-c', h.conf, 'save', '-u', ADDRESS, '-m', 'Pedidos'], MESSAGE);
      expect(saved.code, saved.stderr).toBe(0);
      const [, fetched] = await imap(['SELECT Pedidos', 'FETCH 1 BODY[]']);
      original = fetchedLiteral(fetched!);
      expect(original.toString()).toBe(MESSAGE);
    }, 60_000);
    afterAll(async () => {
      await ctx?.close();
      await h?.stop();
    });

    it('backs the mailbox up through the API and the worker: a mail part holding the folder', async () => {
      const made = await call(ctx, acc, 'admin', `/service/${id}/backups/`, {});
      expect(made.status).toBe(200);
      backupId = made.body.data.backup.id;
      await drainAll(ctx);
      const [backup] = (await call(ctx, acc, 'admin', `/service/${id}/backups/`)).body.data.backups;
      expect(backup).toMatchObject({ id: backupId, status: 'done', error: null });
      expect(backup.parts).toContain('mail');
      const files = await call(ctx, acc, 'admin', `/service/${id}/backups/${backupId}/files/?path=/mail/${ADDRESS}/Maildir/`);
      expect(files.body.data.entries.map((e: { name: string }) => e.name)).toContain('.Pedidos');
      // The folder is gone for the client, as a customer's delete leaves it.
      const [deleted, listed] = await imap(['DELETE Pedidos', 'LIST "" "*"']);
      expect(deleted!.status).toBe('OK');
      expect(listedFolders(listed!)).not.toContain('Pedidos');
      expect(existsSync(path.join(maildir(), '.Pedidos'))).toBe(false);
    }, 30_000);

    it('restores the folder as a copy: a new subscribed folder the running Dovecot lists, holding the same message', async () => {
      const asked = await restore('copy');
      expect(asked.status).toBe(200);
      await drainAll(ctx);
      const done = await restored(asked.body.data.restore.id);
      expect(done, done?.error).toMatchObject({ status: 'done', result: expect.stringMatching(/^Restaurado \d{8}-\d{4}$/) });
      const folder = done.result as string;
      const [listed, subscribed, selected, fetched] = await imap(['LIST "" "*"', 'LSUB "" "*"', `SELECT "${folder}"`, 'FETCH 1 BODY[]']);
      expect(listedFolders(listed!)).toContain(folder);
      expect(listedFolders(listed!)).not.toContain('Pedidos');
      expect(listedFolders(subscribed!)).toContain(folder);
      expect(selected!.text).toMatch(/^\* 1 EXISTS\r$/m);
      expect(fetchedLiteral(fetched!).equals(original)).toBe(true);
      // Dovecot wrote the subscriptions file first; the restore's line is in the format it reads back.
      expect(readFileSync(path.join(maildir(), 'subscriptions'), 'utf8')).toContain(folder);
    }, 30_000);

    it('restores the folder in place: Pedidos is back, listed by the running Dovecot, with the same message', async () => {
      const asked = await restore('replace');
      expect(asked.status).toBe(200);
      await drainAll(ctx);
      const done = await restored(asked.body.data.restore.id);
      expect(done, done?.error).toMatchObject({ status: 'done' });
      const [listed, selected, fetched] = await imap(['LIST "" "*"', 'SELECT Pedidos', 'FETCH 1 BODY[]']);
      expect(listedFolders(listed!)).toContain('Pedidos');
      expect(selected!.status).toBe('OK');
      expect(selected!.text).toMatch(/^\* 1 EXISTS\r$/m);
      expect(fetchedLiteral(fetched!).equals(original)).toBe(true);
    }, 30_000);
  });
});
