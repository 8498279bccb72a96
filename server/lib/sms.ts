import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Text messages (direct-debit codes). A real SMS gateway plugs in here; by default an outbox folder. */
export type SmsSender = { send(to: string, text: string): Promise<void> };

export function createSmsOutbox(dir: string): SmsSender {
  return {
    async send(to, text) {
      await mkdir(dir, { recursive: true });
      const file = path.join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${to.replace(/\D/g, '')}.json`,
      );
      await writeFile(file, JSON.stringify({ to, text }, null, 2));
    },
  };
}
