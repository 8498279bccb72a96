// The full app's answer to other requests while members upload photos (docs/decisions/045): each
// upload makes its variants in the request (sharp, on libuv's threads) and queues its screening, a job
// that runs both models in the screening thread. `user.php`, one request after another, idle and then
// from the moment 20 uploads leave at once until every photo is screened.
import { createRequire } from 'node:module';
import path from 'node:path';
import type pg from 'pg';
import sharp from 'sharp';
import type { BenchMember } from './fixtures.ts';
import { sequential, sequentialWhile } from './load.ts';

const require = createRequire(import.meta.url);

export type UploadsResult = {
  uploads: number;
  idle: { p50: number; p99: number; requests: number };
  busy: { p50: number; p99: number; requests: number };
  uploadAnswerP50: number;
  uploadAnswerMax: number;
  screenedWithinMs: number;
  errors: number;
};

/** The face model package's sample at 1,600 px wide, as a phone's photo would arrive. */
export async function benchPhoto(): Promise<Buffer> {
  const demo = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
  return sharp(path.join(demo, 'sample1.jpg')).resize(1600).jpeg({ quality: 90 }).toBuffer();
}

export async function uploadsScenario(options: {
  appUrl: string;
  pool: pg.Pool;
  /** Who reads `user.php` meanwhile. */
  reader: BenchMember;
  /** One upload each, all at once. */
  uploaders: BenchMember[];
  idleRequests: number;
}): Promise<UploadsResult> {
  const { appUrl, pool, reader, uploaders } = options;
  const userUrl = `${appUrl}/api/user.php`;
  const headers = { cookie: reader.cookie };
  const photo = await benchPhoto();
  // The models load in the screening thread on the first photo: one upload first, screened, so the
  // measured ones find the thread as a running server has it.
  const warm = uploaders[0]!;
  const warmAnswer = await upload(appUrl, warm, photo);
  if (warmAnswer.status !== 201) throw new Error(`the warm-up upload answered ${warmAnswer.status}`);
  await screened(pool, [warm.profileId], 120_000);
  await sequential(userUrl, 200, headers);
  const idle = await sequential(userUrl, options.idleRequests, headers);

  const measured = uploaders.slice(1);
  const started = performance.now();
  let done = false;
  const uploads = Promise.all(
    measured.map(async (member) => {
      const answer = await upload(appUrl, member, photo);
      return { status: answer.status, ms: performance.now() - started };
    }),
  ).then(async (answers) => {
    const uploadedBy = measured.filter((_, index) => answers[index]!.status === 201);
    await screened(
      pool,
      uploadedBy.map((member) => member.profileId),
      300_000,
    );
    done = true;
    return answers;
  });
  const busy = await sequentialWhile(userUrl, () => !done, headers);
  const answers = await uploads;
  const screenedWithinMs = performance.now() - started;
  const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  return {
    uploads: measured.length,
    idle,
    busy,
    uploadAnswerP50: times[Math.floor(times.length / 2)] ?? 0,
    uploadAnswerMax: times.at(-1) ?? 0,
    screenedWithinMs,
    errors: idle.errors + busy.errors + answers.filter((answer) => answer.status !== 201).length,
  };
}

function upload(appUrl: string, member: BenchMember, photo: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  return fetch(`${appUrl}/api/photos.php`, {
    method: 'POST',
    headers: { cookie: member.cookie },
    body: form,
  });
}

/** Waits until none of these profiles has a photo still waiting for its screening. */
async function screened(pool: pg.Pool, profileIds: number[], withinMs: number): Promise<void> {
  const until = performance.now() + withinMs;
  for (;;) {
    const { rows } = await pool.query<{ waiting: number }>(
      `select count(*)::int as waiting from photos where profile_id = any($1) and status = 'screening'`,
      [profileIds],
    );
    const uploaded = await pool.query<{ total: number }>(
      'select count(*)::int as total from photos where profile_id = any($1)',
      [profileIds],
    );
    if (rows[0]!.waiting === 0 && uploaded.rows[0]!.total >= profileIds.length) return;
    if (performance.now() > until) throw new Error(`${rows[0]!.waiting} photos still screening`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
