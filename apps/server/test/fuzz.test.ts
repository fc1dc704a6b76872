import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession, SESSION_COOKIE } from '../src/modules/session/sessions.ts';
import { type Account, createAccount } from './fixtures.ts';
import { describeStores, openTestApp, type TestContext } from './stores.ts';

/**
 * Kept fixed (decision 015): every call of the API, from the app's own route table, with random
 * and malformed params, queries and bodies (truncated multipart, wrong content types, huge and
 * nested fields, control characters), as a signed-out visitor, a read-only user and a writing
 * user. Any 500, any answer outside the envelope and any crash fails. Bounded: a fixed number of
 * rounds per call, stopped early at a time budget; the count of requests sent is printed.
 * ATALAYA_FUZZ_SEED replays a run.
 */
const SEED = Number(process.env.ATALAYA_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ROUNDS = 14;
const BUDGET_MS = 24_000;

/** mulberry32: small, seedable, good enough to pick cases. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  return { next, int, pick, chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof prng>;

const CONTROL = ['\u0000', '\r\n', '\n', '\t', '\u001b', '\u007f', '\u0085', '\u2028', '\u202e', '\ufeff', '\ud800'];
const NASTY = [
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'true',
  'null',
  '[]',
  '{}',
  '../../etc/passwd',
  "'; DROP TABLE item; --",
  '<script>alert(1)</script>',
  '%00',
  '%zz',
  '\u0024{7*7}',
  'ñandú.es',
  'xn--and-6ma2c.es',
  'a'.repeat(70),
  '9'.repeat(30),
  '2147483648',
  '__proto__',
  'A',
  'TXT',
  'all_contacts',
  'on',
  '1',
  'digest',
  '192.0.2.1',
  '2001:db8::1',
  'ns1.example.net',
  'https://example.org/',
  'ana@example.com',
  '+34.971123456',
  'Abcdef-12345!',
  'test-password-1',
  'public_html',
  '/',
];

function text(rng: Rng): string {
  switch (rng.int(6)) {
    case 0:
      return rng.pick(NASTY);
    case 1:
      return `${rng.pick(NASTY)}${rng.pick(CONTROL)}${rng.pick(NASTY)}`;
    case 2:
      return Array.from({ length: rng.int(40) }, () => String.fromCharCode(rng.int(0x250))).join('');
    case 3:
      return 'x'.repeat(rng.pick([255, 256, 4097, 70_000]));
    case 4:
      return String(rng.int(100_000) - 10);
    default:
      return Array.from({ length: 1 + rng.int(12) }, () => 'abcdefghijklmnñ0123456789.-_'[rng.int(28)]).join('');
  }
}

/** A value for a field: from its schema (enum, type) when known, else anything. */
function value(rng: Rng, schema: Record<string, unknown> | undefined): unknown {
  if (schema?.enum && rng.chance(0.5)) return rng.pick(schema.enum as unknown[]);
  if (schema?.type === 'array' && rng.chance(0.5)) return Array.from({ length: rng.int(9) }, () => text(rng));
  switch (rng.int(10)) {
    case 0:
      return rng.int(2) ? rng.int(1000) : -rng.next();
    case 1:
      return rng.pick([null, true, false]);
    case 2:
      return { nested: { deeper: [text(rng)] } };
    default:
      return text(rng);
  }
}

type BodySchema = { properties?: Record<string, Record<string, unknown>> };

/** Fields of a body: the schema's own names, with some unknown, prototype-polluting or control-character names. */
function fields(rng: Rng, schema: BodySchema | undefined): Record<string, unknown> {
  const names = Object.keys(schema?.properties ?? {});
  const out: Record<string, unknown> = {};
  for (const name of names) if (rng.chance(0.8)) out[name] = value(rng, schema?.properties?.[name]);
  if (rng.chance(0.3)) out[rng.pick(['__proto__', 'constructor', 'language', 'x\u0000y', 'a[b][c]', 'dns[]', 'é'.repeat(300)])] = text(rng);
  return out;
}

/** encodeURIComponent, but a lone surrogate goes as the invalid UTF-8 a broken client would send. */
const enc = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
};

const urlEncode = (body: Record<string, unknown>) =>
  Object.entries(body)
    .flatMap(([k, v]) =>
      Array.isArray(v) ? v.map((item) => [`${k}[]`, String(item)]) : [[k, typeof v === 'object' ? JSON.stringify(v) : String(v)]],
    )
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join('&');

function multipart(body: Record<string, unknown>, rng: Rng) {
  const b = `B${rng.int(1e9)}`;
  const parts = Object.entries(body).map(([k, v]) => {
    const file = rng.chance(0.2) ? `; filename="${text(rng).slice(0, 20)}.pem"\r\nContent-Type: application/x-pem-file` : '';
    return `--${b}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '')}"${file}\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`;
  });
  const whole = `${parts.join('')}--${b}--\r\n`;
  const cut = rng.pick([whole, whole.slice(0, rng.int(whole.length + 1)), `${parts.join('')}--${b}\r\n`, whole.replaceAll('\r\n', '\n')]);
  return {
    type: rng.pick([`multipart/form-data; boundary=${b}`, 'multipart/form-data', `multipart/form-data; boundary="${b}"`]),
    payload: cut,
  };
}

/** One body in one of the ways a client may send it, well or badly. */
function body(rng: Rng, schema: BodySchema | undefined): { type?: string; payload?: string | Buffer } {
  const content = fields(rng, schema);
  switch (rng.int(11)) {
    case 0:
    case 1:
    case 2:
      return { type: 'application/x-www-form-urlencoded', payload: urlEncode(content) };
    case 3:
      return { type: 'application/json', payload: JSON.stringify(content) };
    case 4:
      return multipart(content, rng);
    case 5: {
      const depth = rng.pick([100, 5000]);
      return { type: 'application/json', payload: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` };
    }
    case 6:
      return { type: 'application/json', payload: rng.pick(['{"a":', '', 'null', '[]', '"x"', '{"__proto__":{"admin":true}}', '\u0000']) };
    case 7:
      return {
        type: rng.pick(['text/plain', 'application/xml', 'application/json; charset=utf-16', 'multipart/mixed; boundary=x', 'x/y', '']),
        payload: urlEncode(content),
      };
    case 8:
      return { type: 'application/x-www-form-urlencoded', payload: rng.pick(['%zz=%', 'a=%E0%A4%A', '&&&==', `${'a[]='.repeat(2000)}`]) };
    case 9:
      // Near and over the body limit.
      return {
        type: 'application/x-www-form-urlencoded',
        payload: `${Object.keys(content)[0] ?? 'name'}=${'x'.repeat(rng.pick([200_000, 300_000]))}`,
      };
    default:
      return {};
  }
}

const PARAM_GARBAGE = [
  '%zz',
  '%E0%A4%A',
  '0',
  '-1',
  '99999999999',
  '2147483648',
  'abc',
  '1.5',
  '%00',
  '%E2%80%AE',
  '..',
  '%2e%2e%2f',
  'a'.repeat(300),
  ' 1',
  '1e3',
];

describeStores('the API under fuzzed requests on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let other: Account;
  const tokens: Record<string, string> = {};
  const renew = async (user: string) => {
    tokens[user] = await createSession(ctx.store, acc.users[user]);
  };

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    await ctx.app.ready();
    acc = await createAccount(ctx.store, {
      users: { ana: 'all=write', lector: 'all=read' },
      items: [
        { reference: 'fuzz.test', domain: true, service: 'normal', mail: true },
        { reference: 'aparca.test', domain: true, service: 'parking' },
        { reference: 'correo.test', mail: true },
      ],
    });
    other = await createAccount(ctx.store, {
      users: { eve: 'all=write' },
      items: [{ reference: 'ajeno.test', domain: true, service: 'normal' }],
    });
    await renew('ana');
    await renew('lector');
  });
  afterAll(() => ctx.close());

  it('answers every call with something other than a 500, signed out, read-only and writing', { timeout: 90_000 }, async () => {
    const rng = prng(SEED + (kind === 'postgres' ? 1 : 0));
    const doc = (await ctx.app.inject({ method: 'GET', url: '/p247/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: BodySchema }> } }>>;
    };
    const calls = ctx.app.apiRoutes.flatMap((r) => r.methods.map((method) => ({ method, url: r.url })));
    const itemIds = [...Object.values(acc.items), ...Object.values(other.items)];
    const param = (name: string) => {
      if (rng.chance(0.25)) return rng.pick(PARAM_GARBAGE);
      if (name === 'id') return String(rng.chance(0.85) ? rng.pick(Object.values(acc.items)) : rng.pick(itemIds));
      if (name === 'toggle') return rng.pick(['block', 'whoisprivacy', 'transferblock', 'externalaccess']);
      if (name === 'appId') return rng.pick(['1', '2', 'pluma', 'wiki-llana', '0']);
      return String(1 + rng.int(40));
    };
    const identities = ['visitor', 'lector', 'ana'] as const;
    const failures: string[] = [];
    let sent = 0;
    const statuses = new Map<number, number>();
    const started = Date.now();
    let rounds = 0;
    for (; rounds < ROUNDS && Date.now() - started < BUDGET_MS; rounds++) {
      for (const call of calls) {
        const schema =
          doc.paths[call.url.replace('/p247', '').replace(/:(\w+)/g, '{$1}')]?.[call.method.toLowerCase()]?.requestBody?.content?.[
            'application/json'
          ]?.schema;
        for (const who of identities) {
          const path = call.url.replace(/:(\w+)/g, (_, name: string) => param(name));
          const query = rng.pick([
            '',
            '',
            '?language=en',
            `?language=${text(rng).slice(0, 5)}`,
            '?a[b][c]=1&a=2',
            `?initialDirectory=${enc(text(rng))}`,
            `?q=${'x'.repeat(9000)}`,
          ]);
          const sendsBody = call.method === 'POST' || rng.chance(0.1);
          const { type, payload } = sendsBody ? body(rng, schema) : {};
          const headers: Record<string, string> = {};
          if (!rng.chance(0.05)) headers['x-dd-request'] = '1';
          if (who !== 'visitor') headers.cookie = `${SESSION_COOKIE}=${tokens[who]}`;
          if (type) headers['content-type'] = type;
          if (rng.chance(0.05)) headers.origin = rng.pick(['http://evil.test', 'http://localhost:80', 'null']);
          const label = `${who} ${call.method} ${path}${query} [${type ?? '-'}] ${JSON.stringify(String(payload ?? '').slice(0, 120))}`;
          try {
            const res = await ctx.app.inject({
              method: call.method as 'GET',
              url: `${path}${query}`,
              headers,
              payload,
              remoteAddress: `10.77.${rng.int(255)}.${rng.int(255)}`,
            });
            sent++;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (res.statusCode >= 500) failures.push(`${res.statusCode} ${label}: ${res.body.slice(0, 200)}`);
            else if (
              call.method !== 'HEAD' &&
              call.url !== '/p247/openapi.json' &&
              res.headers['content-type']?.toString().startsWith('application/json') &&
              !('system' in res.json())
            )
              failures.push(`not an envelope: ${label}`);
            // A sign-out, a password change or a disabled session ends the identity: a new one carries on.
            if (who !== 'visitor' && res.statusCode === 401) await renew(who);
          } catch (error) {
            sent++;
            failures.push(`threw ${(error as Error).message}: ${label}`);
          }
        }
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `fuzz on ${kind}: ${sent} requests (${calls.length} calls × 3 identities × ${rounds} rounds) in ${seconds} s, seed ${SEED}, ` +
        `${failures.length} failures; answers ${[...statuses]
          .sort((a, b) => a[0] - b[0])
          .map(([code, n]) => `${code}×${n}`)
          .join(' ')}`,
    );
    for (const failure of failures.slice(0, 20)) console.log(failure);
    expect(failures.slice(0, 20)).toEqual([]);
  });
});
