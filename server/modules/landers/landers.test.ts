import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LanderMapResponse, LanderProfilesResponse } from '#contract/landers.ts';
import { profiles } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { countryMap } from './lander-map.ts';
import { filterGraph, landerVideoReady, makeLanderVideo } from './lander-video.ts';
import { LandersService } from './landers.service.ts';

describe('lander map geometry', () => {
  it('draws the Netherlands with all twelve provinces inside the outline, South Holland included', async () => {
    const map = await countryMap('NL');
    expect(map).not.toBeNull();
    expect(map?.regions.map((region) => region.code).sort()).toEqual(
      ['DR', 'FL', 'FR', 'GE', 'GR', 'LI', 'NB', 'NH', 'OV', 'UT', 'ZE', 'ZH'].sort(),
    );
    const [, , width, height] = (map?.viewBox ?? '').split(' ').map(Number);
    for (const region of map?.regions ?? []) {
      expect(region.path).toMatch(/^M[\d. L-]+Z$/);
      expect(region.x).toBeGreaterThanOrEqual(0);
      expect(region.x).toBeLessThanOrEqual(width ?? 0);
      expect(region.y).toBeLessThanOrEqual(height ?? 0);
    }
    // South Holland lies west of Utrecht and south of North Holland (its data centre is fixed).
    const at = (code: string) => map?.regions.find((region) => region.code === code);
    expect(at('ZH')?.x).toBeLessThan(at('UT')?.x ?? 0);
    expect(at('ZH')?.y).toBeGreaterThan(at('NH')?.y ?? 0);
  });

  it('has a map for the other countries the sites serve, and none for an unknown code', async () => {
    for (const country of ['DE', 'BE', 'AT', 'FR', 'CH']) {
      expect((await countryMap(country))?.regions.length, country).toBeGreaterThan(5);
    }
    expect(await countryMap('XX')).toBeNull();
  });
});

describe('lander video', () => {
  it('builds a zoom clip per photo for the video lander and cross-fades for the transitions one', () => {
    expect(filterGraph('video', 3)).toContain('zoompan');
    expect(filterGraph('video', 3)).toContain('concat=n=3');
    const fades = filterGraph('transitions', 3);
    expect(fades.match(/fade=t=in/g)).toHaveLength(3);
    expect(fades).toContain('overlay');
  });

  it('makes a real MP4 and its poster from photos', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lander-video-'));
    try {
      const photos = await Promise.all(
        ['#d53a7b', '#3a7bd5', '#7bd53a'].map((background) =>
          sharp({ create: { width: 300, height: 300, channels: 3, background } })
            .png()
            .toBuffer(),
        ),
      );
      await makeLanderVideo(dir, 'transitions', photos);
      expect(landerVideoReady(dir, 'transitions')).toBe(true);
      const { readFile } = await import('node:fs/promises');
      const video = await readFile(path.join(dir, 'transitions.mp4'));
      expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect((await sharp(path.join(dir, 'transitions.jpg')).metadata()).format).toBe('jpeg');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('landers API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const { generateDemoMedia } = await import('#server/modules/demo/demo.media.ts');
    await generateDemoMedia(t.app.deps.db, t.app.deps.storage, { maxProfiles: 24 });
  });
  afterAll(() => t.close());

  const landerProfiles = async (query = '', headers: Record<string, string> = {}) => {
    const response = await t.app.inject({ url: `/api/landers/profiles.php${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as LanderProfilesResponse;
  };

  it("shows fictional profiles with a photo of the visitor's country only, never a member who opted in", async () => {
    const member = await activeMember(t.app, { name: 'Opted In' });
    const site = await t.app.deps.sites.resolve('localhost');
    // A real member in the lander's country, active just now and public: first in any public list.
    await t.database.db
      .update(profiles)
      .set({
        country: site.countries[0] ?? 'NL',
        publicProfile: true,
        lastActiveAt: new Date(Date.now() + 3600_000),
      })
      .where(eq(profiles.id, member.profileId));
    await t.database.db.insert(photos).values({
      profileId: member.profileId,
      mainKey: 'photos/opted-in.webp',
      thumbKey: 'photos/opted-in-thumb.webp',
      blurredKey: 'public/opted-in-blur.webp',
      blurredThumbKey: 'public/opted-in-blur-thumb.webp',
      width: 64,
      height: 64,
      moderation: 'approved',
    });
    // The home page may show this member (opted in): proof the member is in the public pool.
    const featured = (await t.app.inject({ url: '/api/featured.php?limit=24' })).json().profiles as {
      id: number;
    }[];
    expect(featured.some((profile) => profile.id === member.profileId)).toBe(true);
    const answer = await landerProfiles('?limit=24');
    expect(answer.profiles.length).toBeGreaterThan(0);
    expect(answer.profiles.every((profile) => profile.fictional && profile.main_image !== null)).toBe(true);
    expect(answer.profiles.every((profile) => profile.country === answer.country)).toBe(true);
    expect(answer.profiles.some((profile) => profile.id === member.profileId)).toBe(false);
  });

  it('filters by gender and by region', async () => {
    const women = await landerProfiles('?gender=female&limit=24');
    expect(women.profiles.every((profile) => profile.gender === 'female')).toBe(true);
    const region = (await landerProfiles('?limit=24')).profiles.find(
      (profile) => profile.countryregion,
    )?.countryregion;
    expect(region).toBeTruthy();
    const regional = await landerProfiles(`?region=${region}&limit=24`);
    expect(regional.profiles.length).toBeGreaterThan(0);
    expect(regional.profiles.every((profile) => profile.countryregion === region)).toBe(true);
    expect((await t.app.inject({ url: '/api/landers/profiles.php?region=<x>' })).statusCode).toBe(422);
  });

  it("maps the visitor's country with the singles per region, names in the reader's language", async () => {
    const map = async (lang: string) => {
      const response = await t.app.inject({ url: `/api/landers/map.php?lang=${lang}` });
      expect(response.statusCode).toBe(200);
      return response.json() as LanderMapResponse;
    };
    const english = await map('en');
    expect(english.outline.length).toBeGreaterThan(100);
    expect(english.regions.length).toBeGreaterThan(5);
    const total = english.regions.reduce((sum, region) => sum + region.singles, 0);
    expect(total).toBeGreaterThan(0);
    // The focus is the region with the most singles, and it comes first.
    expect(english.focus).toBe(english.regions[0]?.code);
    expect(english.regions[0]?.singles).toBe(Math.max(...english.regions.map((region) => region.singles)));
    // Its singles are exactly the lander's profiles of that region (counted the same way).
    const regional = await landerProfiles(`?region=${english.focus}&limit=24`);
    expect(regional.profiles.length).toBe(Math.min(24, english.regions[0]?.singles ?? 0));
    if (english.country === 'NL') {
      const german = await map('de');
      expect(german.regions.find((region) => region.code === 'NH')?.name).toBe('Nordholland');
      expect(english.regions.find((region) => region.code === 'NH')?.name).toBe('North Holland');
      expect(german.country_name).toBe('Niederlande');
    }
  });

  it('answers no video until it is made, then links the made files', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lander-media-'));
    try {
      const { db, clock, storage, caught } = t.app.deps;
      const service = new LandersService(db, clock, storage, dir, caught.reportCaught);
      expect(service.media()).toEqual({ video: null, transitions: null });
      await expect(service.ensureMedia()).resolves.toBe(true);
      expect(existsSync(path.join(dir, 'video.mp4'))).toBe(true);
      expect(service.media()).toEqual({
        video: { src: '/lander-media/video.mp4', poster: '/lander-media/video.jpg' },
        transitions: { src: '/lander-media/transitions.mp4', poster: '/lander-media/transitions.jpg' },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves the made videos from DATA_DIR/assets/landers', async () => {
    const answer = await t.app.inject({ url: '/api/landers/media.php' });
    expect(answer.statusCode).toBe(200);
    // The answer started making the videos in the background: the files appear once ffmpeg is done.
    await vi.waitFor(
      () => expect(landerVideoReady(path.join(t.config.DATA_DIR, 'assets', 'landers'), 'video')).toBe(true),
      { timeout: 25_000, interval: 100 },
    );
    const video = await t.app.inject({ url: '/lander-media/video.mp4' });
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
  });
});
