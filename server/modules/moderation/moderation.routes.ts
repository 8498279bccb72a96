import { z } from 'zod';
import {
  creditCorrectionSchema,
  creditsResponseSchema,
  handleReportSchema,
  memberActionSchema,
  memberDetailSchema,
  memberQuerySchema,
  memberStatusResponseSchema,
  membersQuerySchema,
  membersResponseSchema,
  photoDecisionSchema,
  photoQueueResponseSchema,
  refundResponseSchema,
  refundSchema,
  removePhotoSchema,
  reportResponseSchema,
  reportsQuerySchema,
  reportsResponseSchema,
  setMemberStatusSchema,
} from '#contract/admin-members.ts';
import { errorBodySchema, okSchema } from '#contract/common.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { ModerationService } from './moderation.service.ts';

const errors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
};
const tags = ['admin'];
const exportSchema = z
  .record(z.string(), z.unknown())
  .describe(
    'account, profile, photos (URLs and keys), messages, orders, credits ledger, consents, visits (made: whom; received: counts per day)',
  );

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
    mail: deps.mail,
    translator: deps.translator,
    bus: deps.bus,
    config: deps.config,
    reportCaught: deps.caught.reportCaught,
  });

  app.get(
    '/api/admin/members.php',
    {
      schema: {
        tags,
        summary: 'Real members by e-mail, name or id, site and status, newest first (moderator)',
        querystring: membersQuerySchema,
        response: { 200: membersResponseSchema, ...errors },
      },
    },
    async (request) => {
      requireStaff(request, 'moderate');
      return service.members(request.query);
    },
  );

  app.get(
    '/api/admin/member.php',
    {
      schema: {
        tags,
        summary:
          'A member: profile, photos, account, sessions, orders, ledger, reports by and about them (moderator)',
        querystring: memberQuerySchema,
        response: { 200: memberDetailSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'moderate');
      const detail = await service.member(request.query.id);
      await deps.staff.audit(deps.db, {
        staffId: actor.id,
        action: 'member.read',
        object: `profile:${request.query.id}`,
        ip: request.ip,
      });
      return detail;
    },
  );

  app.put(
    '/api/admin/member.php',
    {
      schema: {
        tags,
        summary: 'Bans or unbans a member; a ban ends every session and refuses sign-in (moderator)',
        body: setMemberStatusSchema,
        response: { 200: memberStatusResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'moderate');
      const { id, status, reason } = request.body;
      return service.setStatus({ actor, ip: request.ip, reason }, id, status);
    },
  );

  app.delete(
    '/api/admin/member-photo.php',
    {
      schema: {
        tags,
        summary: "Removes a member's photo; the member is told by mail (moderator)",
        body: removePhotoSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'moderate');
      await service.removePhoto({ actor, ip: request.ip, reason: request.body.reason }, request.body.photo);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/member-activation.php',
    {
      schema: {
        tags,
        summary: 'Sends the activation mail again to a member who has not confirmed (moderator)',
        body: memberActionSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'moderate');
      await service.resendActivation(
        { actor, ip: request.ip, reason: request.body.reason },
        request.body.member,
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/member-deletion.php',
    {
      schema: {
        tags,
        summary: 'Starts the deletion of a member on their request (14 days to come back) (moderator)',
        body: memberActionSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'moderate');
      await service.startDeletion(
        { actor, ip: request.ip, reason: request.body.reason },
        request.body.member,
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/api/admin/credits.php',
    {
      schema: {
        tags,
        summary:
          'A credit correction through the ledger, naming the staff member and reason; never below zero (admin)',
        body: creditCorrectionSchema,
        response: { 200: creditsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'member_money');
      const { member, amount, reason } = request.body;
      return { credits: await service.correctCredits({ actor, ip: request.ip, reason }, member, amount) };
    },
  );

  app.post(
    '/api/admin/refund.php',
    {
      schema: {
        tags,
        summary:
          'Refunds an order through the payment provider; the ledger takes its credits back once (admin)',
        body: refundSchema,
        response: { 200: refundResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'member_money');
      return service.refund({ actor, ip: request.ip, reason: request.body.reason }, request.body.order);
    },
  );

  app.get(
    '/api/admin/member-export.php',
    {
      schema: {
        tags,
        summary: "A member's data as a JSON file (GDPR), on the member's request (admin)",
        querystring: memberQuerySchema,
        response: { 200: exportSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = requireStaff(request, 'member_money');
      const data = await service.exportForStaff({ actor, ip: request.ip }, request.query.id);
      reply.header('content-disposition', `attachment; filename="member-${request.query.id}.json"`);
      reply.header('cache-control', 'private, no-store');
      return data;
    },
  );

  app.get(
    '/api/admin/reports.php',
    {
      schema: {
        tags,
        summary: 'Member reports (profiles and messages), open first, with the reported message (moderator)',
        querystring: reportsQuerySchema,
        response: { 200: reportsResponseSchema, ...errors },
      },
    },
    async (request) => {
      requireStaff(request, 'moderate');
      return { reports: await service.reports(request.query.status) };
    },
  );

  app.put(
    '/api/admin/reports.php',
    {
      schema: {
        tags,
        summary:
          'Handles a report once: dismiss, warn (mail), remove_photo or ban; 409 report_handled (moderator)',
        body: handleReportSchema,
        response: { 200: reportResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'moderate');
      const { reason, ...input } = request.body;
      return { report: await service.handleReport({ actor, ip: request.ip, reason }, input) };
    },
  );

  app.get(
    '/api/admin/photo-queue.php',
    {
      schema: {
        tags,
        summary: "Members' new photos waiting for a moderator, oldest first (moderator)",
        response: { 200: photoQueueResponseSchema, ...errors },
      },
    },
    async (request) => {
      requireStaff(request, 'moderate');
      return { photos: await service.photoQueue() };
    },
  );

  app.put(
    '/api/admin/photo-queue.php',
    {
      schema: {
        tags,
        summary: 'Approves or rejects a new photo; a rejected one is removed and the member told (moderator)',
        body: photoDecisionSchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'moderate');
      const { photo, decision, reason } = request.body;
      await service.decidePhoto({ actor, ip: request.ip, reason: reason ?? '' }, photo, decision);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/export.php',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
      schema: {
        tags: ['accounts'],
        summary: 'Download my data: everything stored about the signed-in member as a JSON file (GDPR)',
        response: { 200: exportSchema, 403: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const member = requireMember(request);
      const data = await service.exportData(member.id);
      reply.header('content-disposition', 'attachment; filename="my-data.json"');
      reply.header('cache-control', 'private, no-store');
      return data;
    },
  );
}
