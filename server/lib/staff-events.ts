import type { EventBus } from './event-bus.ts';

/** The back office's channel on the event bus: every staff socket on every instance gets its events. */
export const staffChannel = 'staff';

/** Live events for staff (contract/admin.ts AdminEvent): the queue changed, a claim moved, a message came. */
export type StaffEvent =
  | { type: 'inbox'; conversation: number; waiting: boolean }
  | {
      type: 'claim';
      conversation: number;
      claimed_by: { id: number; name: string } | null;
      claim_expires_at: string | null;
    }
  | { type: 'message'; conversation: number; message: unknown };

export function publishToStaff(bus: EventBus, event: StaffEvent): Promise<void> {
  return bus.publish(staffChannel, event);
}
