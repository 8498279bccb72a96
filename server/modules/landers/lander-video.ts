import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadFfmpegPath, loadSharp } from '#server/lib/lazy-packages.ts';

const run = promisify(execFile);

/** The two lander videos: a slow zoom over each photo, and photos that cross-fade into each other. */
export const landerVideoKinds = ['video', 'transitions'] as const;
export type LanderVideoKind = (typeof landerVideoKinds)[number];

export const videoWidth = 360;
export const videoHeight = 480;
const secondsPerPhoto = 2.5;
const fps = 15;

export function videoFile(dir: string, kind: LanderVideoKind): string {
  return path.join(dir, `${kind}.mp4`);
}
export function posterFile(dir: string, kind: LanderVideoKind): string {
  return path.join(dir, `${kind}.jpg`);
}

export function landerVideoReady(dir: string, kind: LanderVideoKind): boolean {
  return existsSync(videoFile(dir, kind)) && existsSync(posterFile(dir, kind));
}

/** ffmpeg's filter graph for one kind: every photo `secondsPerPhoto` long, H.264 that every phone plays. */
export function filterGraph(kind: LanderVideoKind, count: number): string {
  const frames = Math.round(secondsPerPhoto * fps);
  const size = `${videoWidth}x${videoHeight}`;
  if (kind === 'video') {
    // Ken Burns: each photo zooms in slowly, then the clips follow each other.
    const clips = Array.from(
      { length: count },
      (_, index) =>
        `[${index}:v]scale=${videoWidth * 2}:${videoHeight * 2},zoompan=z='min(zoom+0.0015,1.25)':d=${frames}:x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=${size}:fps=${fps},setsar=1[v${index}]`,
    );
    const inputs = Array.from({ length: count }, (_, index) => `[v${index}]`).join('');
    return `${clips.join(';')};${inputs}concat=n=${count}:v=1:a=0,format=yuv420p[out]`;
  }
  // Cross-fades: each photo fades in over the one before (ffmpeg 4.1 has no xfade: overlay + fade).
  const fade = 0.6;
  const parts = Array.from(
    { length: count },
    (_, index) =>
      `[${index}:v]scale=${size},setsar=1,format=yuva420p,fade=t=in:st=0:d=${fade}:alpha=1,setpts=PTS-STARTPTS+${(index * (secondsPerPhoto - fade)).toFixed(2)}/TB[f${index}]`,
  );
  const total = count * (secondsPerPhoto - fade) + fade;
  let chain = `color=c=black:s=${size}:r=${fps}:d=${total.toFixed(2)}[base]`;
  let last = 'base';
  for (let index = 0; index < count; index++) {
    chain += `;[${last}][f${index}]overlay=eof_action=pass[o${index}]`;
    last = `o${index}`;
  }
  return `${parts.join(';')};${chain};[${last}]format=yuv420p[out]`;
}

/**
 * Makes one lander video from photos (any format sharp reads) into `dir`, with its poster; written
 * under a temporary name first, so a page never links a half-written file.
 */
export async function makeLanderVideo(dir: string, kind: LanderVideoKind, photos: Buffer[]): Promise<void> {
  const ffmpeg = await loadFfmpegPath();
  if (!ffmpeg) return;
  const sharp = await loadSharp();
  if (photos.length < 2) throw new Error('a lander video needs at least two photos');
  await mkdir(dir, { recursive: true });
  const work = await mkdtemp(path.join(os.tmpdir(), 'lander-video-'));
  try {
    const frames = await Promise.all(
      photos.map(async (photo, index) => {
        const file = path.join(work, `${index}.jpg`);
        await writeFile(
          file,
          await sharp(photo)
            .resize(videoWidth, videoHeight, { fit: 'cover' })
            .jpeg({ quality: 85 })
            .toBuffer(),
        );
        return file;
      }),
    );
    // zoompan makes a clip of each single frame; the cross-fades need each photo as a clip already.
    const inputs = frames.flatMap((file) =>
      kind === 'video'
        ? ['-i', file]
        : ['-loop', '1', '-t', String(secondsPerPhoto), '-framerate', String(fps), '-i', file],
    );
    const partial = path.join(work, 'out.mp4');
    await run(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        ...inputs,
        '-filter_complex',
        filterGraph(kind, frames.length),
        '-map',
        '[out]',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '30',
        '-profile:v',
        'main',
        '-movflags',
        '+faststart',
        '-an',
        '-y',
        partial,
      ],
      { timeout: 120_000 },
    );
    const poster = path.join(work, 'poster.jpg');
    await writeFile(
      poster,
      await sharp(photos[0])
        .resize(videoWidth, videoHeight, { fit: 'cover' })
        .jpeg({ quality: 70 })
        .toBuffer(),
    );
    await rename(poster, posterFile(dir, kind));
    await rename(partial, videoFile(dir, kind));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
