// The drizzle schema of every area, gathered for the client and drizzle-kit.
export * from './accounts.ts';
export * from './catalog.ts';
export * from './chats.ts';
export * from './credits.ts';
export * from './engagement.ts';
export * from './jobs.ts';
export * from './mail.ts';
export * from './members.ts';
export * from './notifications.ts';
export * from './payments.ts';
export * from './photos.ts';
export * from './sites.ts';
export * from './social.ts';
export * from './staff.ts';
export * from './system.ts';
export * from './tracking.ts';
