import { afterEach, describe, expect, it } from 'vitest';
import { BARE_BODY } from './bare.ts';
import { type Running, startBare, startFastifyBaseline } from './processes.ts';

const started: Running[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

async function answerOf(start: () => Promise<Running>) {
  const server = await start();
  started.push(server);
  const response = await fetch(`http://127.0.0.1:${server.port}/`);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('the bench reference servers', () => {
  it('answer exactly the bare baseline body, so their ratios compare like with like', async () => {
    const expected = { status: 200, type: 'application/json; charset=utf-8', body: BARE_BODY };
    expect(await answerOf(() => startBare())).toEqual(expected);
    expect(await answerOf(() => startBare(30))).toEqual(expected);
    expect(await answerOf(() => startFastifyBaseline())).toEqual(expected);
    expect(await answerOf(() => startFastifyBaseline(false))).toEqual(expected);
  });
});
