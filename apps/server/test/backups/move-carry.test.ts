import { afterAll, beforeAll, expect, it } from 'vitest';
import { moveCarry } from '../../src/modules/backups/carry.ts';
import { streamData } from '../../src/modules/service/move.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

describeStores('how a service move carries its data on %s', (kind) => {
  let byDefault: TestContext;
  let streaming: TestContext;
  beforeAll(async () => {
    byDefault = await openTestApp(kind);
    streaming = await openTestApp(kind, { 'backups.moveBySnapshot': false });
  });
  afterAll(async () => {
    await byDefault?.close();
    await streaming?.close();
  });

  it('moves by a snapshot by default, and streams through the panel as before when backups.moveBySnapshot is false', () => {
    expect(byDefault.app.runtime.config.backups.moveBySnapshot).toBe(true);
    expect(moveCarry(byDefault.app.runtime)).not.toBe(streamData);
    expect(moveCarry(streaming.app.runtime)).toBe(streamData);
  });
});
