import { createHmac } from 'node:crypto';
import { type Challenge, createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import { now, type Store } from '../../store/db.ts';

/**
 * How hard the proof of work is. A browser solves the default in well under a second; tests lower it
 * (the challenge is still real, only cheaper).
 */
export const captchaDifficulty = { cost: 200, counterMin: 1000, counterMax: 5000, ttlSeconds: 600 };

const ALGORITHM = 'PBKDF2/SHA-256';

// What the widget sends back: base64 of { challenge, solution }. Anything else is refused unread.
const payloadSchema = z.object({
  challenge: z.object({
    parameters: z
      .object({
        algorithm: z.literal(ALGORITHM),
        nonce: z.string().max(200),
        salt: z.string().max(200),
        cost: z.number(),
        keyLength: z.number(),
        keyPrefix: z.string().max(200),
        keySignature: z.string().max(200).optional(),
        expiresAt: z.number(),
      })
      .loose(),
    signature: z.string().min(1).max(200),
  }),
  solution: z.object({ counter: z.number().int().min(0), derivedKey: z.string().max(200), time: z.number().optional() }),
});

export interface Captcha {
  create(): Promise<Challenge>;
  /** True once per solved challenge: a replayed payload is refused, in any process. */
  verify(encoded: string): Promise<boolean>;
}

/** ALTCHA challenges signed with keys derived from the data dir's secret key, so every process agrees. */
export function createCaptcha(store: Store, secretKey: Buffer): Captcha {
  const derive = (purpose: string) => createHmac('sha256', secretKey).update(purpose).digest('hex');
  const hmacSignatureSecret = derive('altcha-challenge');
  const hmacKeySignatureSecret = derive('altcha-key');
  return {
    create: () =>
      createChallenge({
        algorithm: ALGORITHM,
        cost: captchaDifficulty.cost,
        counter: randomInt(captchaDifficulty.counterMax, captchaDifficulty.counterMin),
        deriveKey,
        expiresAt: now() + captchaDifficulty.ttlSeconds,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      }),
    async verify(encoded) {
      const payload = decode(encoded);
      if (!payload) return false;
      const result = await verifySolution({ ...payload, deriveKey, hmacSignatureSecret, hmacKeySignatureSecret }).catch(() => null);
      if (!result?.verified) return false;
      const t = now();
      await store.deleteFrom('used_challenge').where('expires_at', '<', t).execute();
      // The primary key makes "first use wins" atomic across processes.
      const inserted = await store
        .insertInto('used_challenge')
        .values({ signature: payload.challenge.signature, expires_at: payload.challenge.parameters.expiresAt })
        .onConflict((oc) => oc.column('signature').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}

function decode(encoded: string) {
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
