import { endpoints, translate, ZONE_IMPORT_LIMITS } from '@atalaya/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConfigError } from '../../../config/config.ts';
import { dnsSettings } from '../../../drivers/dns/index.ts';
import { noteChanges } from '../../../http/actor.ts';
import { ApiError, FieldErrors } from '../../../http/errors.ts';
import { requestLanguage } from '../../../http/language.ts';
import { route } from '../../../http/route.ts';
import { type Limit, takeSlot } from '../../../kernel/ratelimit.ts';
import { zoneOf } from '../access.ts';
import { authorOf } from '../history/record.ts';
import { rrsetView } from '../history/view.ts';
import { loadRecords } from '../record-store.ts';
import type { DnsRecordRow } from '../tables.ts';
import { applyPlan } from './apply.ts';
import { parseMasterFile } from './parse.ts';
import { type ImportPlan, type Offered, offeredLines, type PlanMode, planChange } from './plan.ts';
import { checkTemplates, templateOffer } from './templates.ts';

/** Previews and imports of zone files or templates, per user and minute: each plans against the whole zone. */
const planLimit = (userId: number): Limit => ({ key: `dnsplan:user:${userId}`, max: ZONE_IMPORT_LIMITS.plansPerMinute, windowSeconds: 60 });

/** Zone import (a master file) and the provider's templates: a preview, then the same plan applied. */
export default async function importRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  const settings = dnsSettings(config);
  const problem = checkTemplates(settings.templates);
  if (problem) throw new ConfigError(`Invalid configuration:\n  ${problem}`);
  const zones = { settings };

  /**
   * The plan as the answer shows it, each refusal's reason in the caller's language. The activity
   * log gets its counts, never the file (up to 4 MB) the call was sent.
   */
  const answer = (request: FastifyRequest, plan: ImportPlan) => {
    const language = requestLanguage(request);
    const count = (list: unknown[]) => list.length;
    noteChanges(request, null, {
      added: count(plan.added),
      changed: count(plan.changed),
      removed: count(plan.removed),
      refused: count(plan.refused),
    });
    const { sets: _, refused, ...rest } = plan;
    return {
      plan: { ...rest, refused: refused.map((r) => ({ line: r.line, source: r.source, reason: translate(language, r.key, r.params) })) },
    };
  };

  /**
   * Counts a plan of the caller's (a preview, an import) against their limit, before any work: a
   * plan reads and checks the whole zone and file, and a flood of them would hold the server.
   */
  const countPlan = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = request.user;
    if (!user) return;
    const slot = await takeSlot(store, planLimit(user.id));
    if (slot.wait > 0) {
      reply.header('retry-after', String(slot.wait));
      throw new ApiError(429, 'dns.import_rate_limited', { seconds: slot.wait });
    }
  };

  const fromFile = (text: string) => (current: DnsRecordRow[], zone: string) => {
    const { records, refused } = parseMasterFile(text, zone);
    // Refused lines count too: each is listed in the answer.
    if (records.length + refused.length > ZONE_IMPORT_LIMITS.records) throw FieldErrors.one('zone', 'dns.import_too_large');
    return planChange(offeredLines(records, zone, refused), current, zone, 'replace', settings.defaultTtl, refused);
  };

  const templateNamed = (name: string) => {
    const template = settings.templates.find((t) => t.name === name);
    if (!template) throw new ApiError(404, 'dns.template_unknown');
    return template;
  };
  const fromOffer = (offer: (zone: string) => Offered[], mode: PlanMode) => (current: DnsRecordRow[], zone: string) =>
    planChange(offer(zone), current, zone, mode, settings.defaultTtl);

  route(app, endpoints.dns.importPreview, async (request, reply) => {
    const { itemId, zone } = await zoneOf(request, zones);
    await countPlan(request, reply);
    return { data: answer(request, fromFile(request.body.zone)(await loadRecords(store, itemId), zone)) };
  });

  route(app, endpoints.dns.import, async (request, reply) => {
    const { itemId } = await zoneOf(request, zones);
    await countPlan(request, reply);
    const { result, job } = await applyPlan(store, itemId, authorOf(request, 'import'), fromFile(request.body.zone));
    return { data: answer(request, result), info: [{ key: 'dns.imported' }], job };
  });

  route(app, endpoints.dns.templates, async (request) => {
    const { zone } = await zoneOf(request, zones);
    const language = requestLanguage(request);
    return {
      data: {
        templates: settings.templates.map((t) => ({
          name: t.name,
          label: t.label[language],
          records: [...groupViews(templateOffer(t, zone), zone, settings.defaultTtl)],
        })),
      },
    };
  });

  route(app, endpoints.dns.templatePreview, async (request, reply) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const template = templateNamed(request.body.template);
    await countPlan(request, reply);
    const plan = fromOffer((z) => templateOffer(template, z), 'merge')(await loadRecords(store, itemId), zone);
    return { data: answer(request, plan) };
  });

  route(app, endpoints.dns.templateApply, async (request) => {
    const { itemId } = await zoneOf(request, zones);
    const template = templateNamed(request.body.template);
    const author = authorOf(request, 'template');
    const { result, job } = await applyPlan(
      store,
      itemId,
      author,
      fromOffer((z) => templateOffer(template, z), 'merge'),
    );
    return { data: answer(request, result), info: [{ key: 'dns.template_applied' }], job };
  });
}

/** A template's records as RRsets, for the picker to show what it holds. */
function groupViews(offered: Offered[], zone: string, defaultTtl: number) {
  return rrsetView(
    offered.map((o) => o.record),
    zone,
    defaultTtl,
  );
}
