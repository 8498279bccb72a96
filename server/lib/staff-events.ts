import type { EventBus } from './event-bus.ts';

/** The back office's channel on the event bus: every staff socket on every instance gets its events. */
export const staffChannel = 'staff';

/**
 * Events for staff on the bus. `queue` (a conversation started or stopped waiting) is what the chat
 * module knows; each instance's staff socket relay turns it into the `inbox` frame of
 * contract/admin.ts AdminEvent, with the row as the console shows it. `claim` carries the member's
 * site and language so the relay sends it only to staff assigned to them (and strips them).
 */
export type StaffEvent =
  | { type: 'queue'; conversation: number; waiting: boolean }
  | {
      type: 'claim';
      conversation: number;
      claimed_by: { id: number; name: string } | null;
      claim_expires_at: string | null;
      scope: { siteId: number; language: string };
    }
  | { type: 'message'; conversation: number; message: unknown };

export function publishToStaff(bus: EventBus, event: StaffEvent): Promise<void> {
  return bus.publish(staffChannel, event);
}
