import { API_BASE, endpoints } from '@atalaya/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordFetch } from '../../lib/recordFetch.ts';
import { sendStartupCalls } from '../../lib/startupCalls.ts';
import { expiringQuery, markStartupAnswer, STARTUP_ANSWER_FRESH_MS } from './expiringQuery.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the dashboard's expiring list, sent by the entry (lib/startupCalls.ts)", () => {
  it("is asked for as the dashboard's query asks for it, on the dashboard only", async () => {
    const seen = recordFetch();
    const calls = sendStartupCalls(false, true);
    const sent = seen.length;
    expect(seen.map((s) => `${s.method} ${s.url}`)).toContain(
      `${endpoints.expiry.list.method} ${API_BASE.slice(0, -1)}${endpoints.expiry.list.path}`,
    );
    await new QueryClient().fetchQuery(expiringQuery).catch(() => undefined);
    expect(calls.expiring).not.toBeNull();
    expect(seen).toHaveLength(sent + 1); // the dashboard's query really went out…
    expect(seen[sent - 1]).toEqual(seen[sent]); // …exactly as the entry's did
    expect(sendStartupCalls(false).expiring).toBeNull();
    expect(sendStartupCalls(true).expiring).toBeNull();
  });

  it('counts the start-up answer as fresh for its first seconds, and any later answer as stale at once, as before', async () => {
    const client = new QueryClient();
    const staleTime = () => {
      const query = client.getQueryCache().find({ queryKey: expiringQuery.queryKey })!;
      const option = expiringQuery.staleTime;
      return typeof option === 'function' ? option(query as never) : option;
    };
    client.setQueryData(expiringQuery.queryKey, []);
    expect(staleTime()).toBe(0);
    markStartupAnswer(client.getQueryState(expiringQuery.queryKey)?.dataUpdatedAt);
    expect(staleTime()).toBe(STARTUP_ANSWER_FRESH_MS);
    await new Promise((resolve) => setTimeout(resolve, 5));
    client.setQueryData(expiringQuery.queryKey, []);
    expect(staleTime()).toBe(0);
    markStartupAnswer(0); // refused or failed: nothing is fresh
    expect(staleTime()).toBe(0);
  });
});
