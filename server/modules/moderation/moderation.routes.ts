import { accountsEndpoints } from '#contract/endpoints/accounts.ts';
import { moderationEndpoints as calls } from '#contract/endpoints/moderation.ts';
import { securityEndpoints } from '#contract/endpoints/security.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { ModerationService } from './moderation.service.ts';

/** Members and moderation in the back office, and the members' own data export. */
export async function moderationRoutes(app: ZodApp): Promise<void> {
  const { deps } = app;
  const service = new ModerationService({
    db: deps.db,
    clock: deps.clock,
    storage: deps.storage,
    sites: deps.sites,
    staff: deps.staff,
    accounts: deps.accounts,
    payments: deps.payments,
    security: deps.security,
    mail: deps.mail,
    translator: deps.translator,
    bus: deps.bus,
    chats: deps.chats,
    config: deps.config,
    reportCaught: deps.caught.reportCaught,
  });

  routeOf(app, calls.getMembers, {}, async (request) => {
    requireStaff(request, 'moderate');
    return service.members(request.query);
  });

  routeOf(app, calls.getMember, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    const detail = await service.member(request.query.id);
    await deps.staff.audit(deps.db, {
      staffId: actor.id,
      action: 'member.read',
      object: `profile:${request.query.id}`,
      ip: request.ip,
    });
    return detail;
  });

  routeOf(app, calls.putMember, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    const { id, status, reason } = request.body;
    return service.setStatus({ actor, ip: request.ip, reason }, id, status);
  });

  routeOf(app, calls.deleteMemberPhoto, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    await service.removePhoto({ actor, ip: request.ip, reason: request.body.reason }, request.body.photo);
    return { ok: true as const };
  });

  routeOf(app, calls.postMemberActivation, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    await service.resendActivation(
      { actor, ip: request.ip, reason: request.body.reason },
      request.body.member,
    );
    return { ok: true as const };
  });

  routeOf(app, calls.postMemberDeletion, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    await service.startDeletion({ actor, ip: request.ip, reason: request.body.reason }, request.body.member);
    return { ok: true as const };
  });

  routeOf(app, calls.postCredits, {}, async (request) => {
    const actor = requireStaff(request, 'member_money');
    const { member, amount, reason } = request.body;
    return { credits: await service.correctCredits({ actor, ip: request.ip, reason }, member, amount) };
  });

  routeOf(app, calls.postRefund, {}, async (request) => {
    const actor = requireStaff(request, 'member_money');
    const { order, reason, amount_cents, credits } = request.body;
    return service.refund({ actor, ip: request.ip, reason }, order, {
      ...(amount_cents !== undefined ? { amountCents: amount_cents } : {}),
      ...(credits !== undefined ? { credits } : {}),
    });
  });

  routeOf(app, calls.getMemberExport, {}, async (request, reply) => {
    const actor = requireStaff(request, 'member_money');
    const data = await service.exportForStaff({ actor, ip: request.ip }, request.query.id);
    reply.header('content-disposition', `attachment; filename="member-${request.query.id}.json"`);
    reply.header('cache-control', 'private, no-store');
    return data;
  });

  routeOf(app, calls.getReports, {}, async (request) => {
    requireStaff(request, 'moderate');
    return { reports: await service.reports(request.query.status) };
  });

  routeOf(app, calls.putReports, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    const { reason, ...input } = request.body;
    return { report: await service.handleReport({ actor, ip: request.ip, reason }, input) };
  });

  routeOf(app, calls.getPhotoQueue, {}, async (request) => {
    requireStaff(request, 'moderate');
    const [photos, chatPhotos] = await Promise.all([service.photoQueue(), service.chatPhotoQueue()]);
    return { photos, chat_photos: chatPhotos };
  });

  routeOf(app, calls.putPhotoQueue, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    const { photo, decision, reason } = request.body;
    await service.decidePhoto({ actor, ip: request.ip, reason: reason ?? '' }, photo, decision);
    return { ok: true as const };
  });

  routeOf(app, calls.putChatPhotoQueue, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    const status = await service.decideChatPhoto(
      { actor, ip: request.ip, reason: '' },
      request.body.id,
      request.body.decision,
    );
    return { ok: true as const, status };
  });

  routeOf(app, calls.getAppeals, {}, async (request) => {
    requireStaff(request, 'moderate');
    return { appeals: await service.appeals(request.query.status) };
  });

  routeOf(app, calls.putAppeals, {}, async (request) => {
    const actor = requireStaff(request, 'moderate');
    const { id, decision, reason } = request.body;
    return { appeal: await service.decideAppeal({ actor, ip: request.ip, reason }, id, decision) };
  });

  routeOf(app, securityEndpoints.getStanding, {}, async (request) =>
    service.standing(requireMember(request)),
  );

  routeOf(
    app,
    securityEndpoints.postAppeal,
    { config: { rateLimit: { max: 10, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const member = requireMember(request);
      reply.code(201);
      return service.appeal(member, request.body.strike, request.body.text);
    },
  );

  routeOf(
    app,
    accountsEndpoints.getExport,
    { config: { rateLimit: { max: 10, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const member = requireMember(request);
      const data = await service.exportData(member.id);
      reply.header('content-disposition', 'attachment; filename="my-data.json"');
      reply.header('cache-control', 'private, no-store');
      return data;
    },
  );
}
