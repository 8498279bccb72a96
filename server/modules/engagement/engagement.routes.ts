import type { FastifyRequest } from 'fastify';
import { engagementEndpoints } from '#contract/endpoints/engagement.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';

/** Opener scripts and mass messages (api-contract.md, Staff calls — engagement). */
export async function engagementRoutes(app: ZodApp): Promise<void> {
  const { engagement, staff, db } = app.deps;
  // Admins today; the team lead joins through the `engage` right (staff.service.ts).
  const acting = (request: FastifyRequest) => requireStaff(request, 'engage');
  const audit = (request: FastifyRequest, staffId: number, action: string, object: string) =>
    staff.audit(db, { staffId, action, object, ip: request.ip });

  routeOf(app, engagementEndpoints.getOpeners, {}, async (request) => {
    acting(request);
    return { scripts: await engagement.listScripts(request.query.site) };
  });

  routeOf(app, engagementEndpoints.postOpeners, {}, async (request, reply) => {
    const actor = acting(request);
    const script = await engagement.createScript(request.body);
    await audit(request, actor.id, 'opener.create', `opener:${script.id}`);
    return reply.code(201).send({ script });
  });

  routeOf(app, engagementEndpoints.putOpeners, {}, async (request) => {
    const actor = acting(request);
    const script = await engagement.updateScript(request.body.id, request.body);
    await audit(request, actor.id, 'opener.update', `opener:${script.id}`);
    return { script };
  });

  routeOf(app, engagementEndpoints.deleteOpeners, {}, async (request) => {
    const actor = acting(request);
    await engagement.deleteScript(request.body.id);
    await audit(request, actor.id, 'opener.delete', `opener:${request.body.id}`);
    return { id: request.body.id };
  });

  routeOf(app, engagementEndpoints.postMassMessages, {}, async (request, reply) => {
    const actor = acting(request);
    const answer = await engagement.massMessage(request.body, actor.id);
    if ('count' in answer) return answer;
    await audit(request, actor.id, 'campaign.queue', `campaign:${answer.campaign.id}`);
    return reply.code(202).send(answer);
  });

  routeOf(app, engagementEndpoints.getMassMessages, {}, async (request) => {
    acting(request);
    return { campaigns: await engagement.campaigns(request.query.id) };
  });
}
