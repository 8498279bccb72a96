import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.ts';

function recordingLog() {
  const lines: { level: string; details: Record<string, unknown>; message: string }[] = [];
  const write = (level: string) => (details: object, message: string) =>
    void lines.push({ level, details: details as Record<string, unknown>, message });
  return { lines, log: { warn: write('warn'), error: write('error') } };
}

async function caughtCount(metrics: Metrics, where: string): Promise<number> {
  const metric = await metrics.caughtErrors.get();
  return metric.values.find((value) => value.labels.where === where)?.value ?? 0;
}

describe('caught errors', () => {
  it('logs a failed best-effort work with where it happened, counts it, and never rejects', async () => {
    const { lines, log } = recordingLog();
    const metrics = new Metrics(log);
    await expect(
      metrics.caught.bestEffort('demo.work', async () => {
        throw new Error('disk full');
      }),
    ).resolves.toBeUndefined();
    await expect(metrics.caught.bestEffort('demo.work', () => 42)).resolves.toBe(42);
    // A throw before the first await is caught as well.
    await metrics.caught.bestEffort('demo.sync', () => {
      throw new Error('at once');
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: 'demo.work failed',
        details: expect.objectContaining({
          where: 'demo.work',
          err: expect.objectContaining({ message: 'disk full' }),
        }),
      }),
      expect.objectContaining({ details: expect.objectContaining({ where: 'demo.sync' }) }),
    ]);
    expect(await caughtCount(metrics, 'demo.work')).toBe(1);
    expect(await caughtCount(metrics, 'demo.sync')).toBe(1);
    expect(await metrics.registry.metrics()).toContain('caught_errors_total{where="demo.work"} 1');
  });

  it('reports a caught error at the level asked, on its own app only', async () => {
    const first = recordingLog();
    const second = recordingLog();
    const one = new Metrics(first.log);
    const two = new Metrics(second.log);
    // Handed on unbound, as modules get it.
    const report = one.caught.reportCaught;
    report('demo.lost', new Error('gone'), 'error');
    expect(first.lines).toEqual([expect.objectContaining({ level: 'error', message: 'demo.lost failed' })]);
    expect(second.lines).toEqual([]);
    expect(await caughtCount(one, 'demo.lost')).toBe(1);
    expect(await caughtCount(two, 'demo.lost')).toBe(0);
  });

  it('counts a queue depth that cannot be read, which the scrape shows as -1', async () => {
    const { lines, log } = recordingLog();
    const metrics = new Metrics(log);
    metrics.queue('mail', () => Promise.reject(new Error('database away')));
    expect(await metrics.registry.metrics()).toContain('job_queue_depth{queue="mail"} -1');
    expect(lines[0]?.details).toMatchObject({ where: 'queue-depth.mail' });
    expect(await caughtCount(metrics, 'queue-depth.mail')).toBe(1);
  });
});
