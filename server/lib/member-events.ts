import type { LiveEvent } from '#contract/live.ts';
import type { EventBus } from './event-bus.ts';

/**
 * Live events for one member (api-contract.md, Live events; contract/live.ts is their one
 * definition, parsed by the web client); every instance's sockets of that member get them.
 */
export type MemberEvent =
  | Exclude<LiveEvent, { type: 'ready' }>
  /** Not sent to clients: the member's sessions ended (a ban); every instance closes their sockets. */
  | { type: 'sessions_ended' };

export const memberChannel = (userId: number) => `member.${userId}`;

export function publishToMember(bus: EventBus, userId: number, event: MemberEvent): Promise<void> {
  return bus.publish(memberChannel(userId), event);
}
