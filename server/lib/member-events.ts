import type { EventBus } from './event-bus.ts';

/** Live events for one member (api-contract.md, Live events); every instance's sockets of that member get them. */
export type MemberEvent =
  | { type: 'message'; conversation: number; message: unknown }
  | { type: 'read'; conversation: number }
  | { type: 'like'; profile: unknown }
  | { type: 'match'; profile: unknown }
  | { type: 'credits'; credits: number }
  | { type: 'typing'; conversation: number }
  /** Not sent to clients: the member's sessions ended (a ban); every instance closes their sockets. */
  | { type: 'sessions_ended' };

export const memberChannel = (userId: number) => `member.${userId}`;

export function publishToMember(bus: EventBus, userId: number, event: MemberEvent): Promise<void> {
  return bus.publish(memberChannel(userId), event);
}
