import type { Database } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import * as repo from './replies.repository.ts';

/** Which replies count: of UTC days from … to (both included), some sites and staff (null: all). */
export type ReplyScope = { from: string; to: string; siteIds: number[] | null; staffIds: number[] | null };

/** One staff member's replies over a range (the operators' numbers and the owner's numbers alike). */
export type ReplyNumbers = {
  replies: number;
  conversations: number;
  median_reply_seconds: number | null;
  p90_reply_seconds: number | null;
  earned_credits: number;
  reports: number;
};

export type StaffReplyNumbers = {
  staff: { id: number; name: string; role: 'operator' | 'moderator' | 'admin' };
} & ReplyNumbers;
export type ProfileReplyNumbers = {
  profile: { id: number; name: string };
  replies: number;
  earned_credits: number;
};

const dayMs = 86_400_000;
const hourMs = 3_600_000;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + dayMs).toISOString().slice(0, 10);
const roundOrNull = (value: number | null) => (value === null ? null : Math.round(value));
const byEarned = <T extends { earned_credits: number; replies: number }>(a: T, b: T) =>
  b.earned_credits - a.earned_credits || b.replies - a.replies;

/**
 * The last UTC day whose replies are stored (docs/decisions/061): a reply earns for 24 hours, so a
 * day's earnings are final once the day after it has ended too, and an hour later (a transaction
 * begun before midnight may still write, as for the site's days in decision 018).
 */
export function lastClosedReplyDay(now: Date): string {
  return new Date(now.getTime() - 2 * dayMs - hourMs).toISOString().slice(0, 10);
}

/**
 * The one attribution of replies and earnings: per staff member and per fictional profile, the
 * replies of the scope and the credits members spent in those conversations within 24 hours after
 * each reply (up to the profile's next message). The owner's numbers and the operators' numbers
 * (server/modules/operator) both read it.
 */
export class ReplyNumbersService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Per staff member of the scope, best earners first. */
  async operators(scope: ReplyScope): Promise<StaffReplyNumbers[]> {
    if (scope.siteIds?.length === 0 || scope.staffIds?.length === 0) return [];
    return this.staffRows(await this.split(scope), scope);
  }

  /** Per staff member and per fictional profile of some sites' replies, for the owner's numbers. */
  async everyone(range: { from: string; to: string; siteIds: number[] }) {
    if (range.siteIds.length === 0) return { operators: [], profiles: [] };
    const scope: ReplyScope = { ...range, staffIds: null };
    const split = await this.split(scope);
    const [operators, profiles] = await Promise.all([
      this.staffRows(split, scope),
      repo.profileReplyFigures(this.db, split),
    ]);
    const names = await repo.profileNames(
      this.db,
      profiles.map((row) => row.profile_id),
    );
    return {
      operators,
      profiles: profiles
        .map(
          (row): ProfileReplyNumbers => ({
            profile: {
              id: row.profile_id,
              name: names.find((entry) => entry.id === row.profile_id)?.name ?? '',
            },
            replies: row.replies,
            earned_credits: row.earned,
          }),
        )
        .sort(byEarned),
    };
  }

  /**
   * The scope's days before the last closed one are stored (the missing ones filled now, once); the
   * days after it are computed from the audit trail and the messages when asked.
   */
  private async split(scope: ReplyScope): Promise<repo.SplitRange> {
    const lastClosed = lastClosedReplyDay(this.clock.now());
    let stored: repo.Days | null = null;
    if (scope.from <= lastClosed) {
      stored = { from: scope.from, to: scope.to < lastClosed ? scope.to : lastClosed };
      const missing = await repo.missingReplyDays(this.db, stored);
      if (missing.length > 0) await repo.fillReplyDays(this.db, { from: missing[0]!, to: missing.at(-1)! });
    }
    const open =
      scope.to > lastClosed
        ? { from: scope.from > lastClosed ? scope.from : nextDay(lastClosed), to: scope.to }
        : null;
    return { from: scope.from, stored, open, siteIds: scope.siteIds, staffIds: scope.staffIds };
  }

  private async staffRows(split: repo.SplitRange, scope: ReplyScope): Promise<StaffReplyNumbers[]> {
    const [figures, reports] = await Promise.all([
      repo.staffReplyFigures(this.db, split),
      repo.replyReports(this.db, scope, scope),
    ]);
    const names = await repo.staffNames(
      this.db,
      figures.map((row) => row.staff_id),
    );
    return figures
      .map((row): StaffReplyNumbers => {
        const staff = names.find((entry) => entry.id === row.staff_id);
        return {
          staff: { id: row.staff_id, name: staff?.name ?? '', role: staff?.role ?? 'operator' },
          replies: row.replies,
          conversations: row.conversations,
          median_reply_seconds: roundOrNull(row.median),
          p90_reply_seconds: roundOrNull(row.p90),
          earned_credits: row.earned,
          reports: reports.find((entry) => entry.staff_id === row.staff_id)?.reports ?? 0,
        };
      })
      .sort(byEarned);
  }
}
