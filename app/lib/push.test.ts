// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { subscribeToPush } from './push.ts';

const publicKey = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

/** A browser whose push steps answer as given; the server takes the subscription. */
function browserWith(options: {
  permission?: NotificationPermission;
  subscribe?: () => Promise<unknown>;
  register?: () => Promise<unknown>;
  serverOk?: boolean;
}) {
  const subscribe = vi.fn(
    options.subscribe ?? (async () => ({ toJSON: () => ({ endpoint: 'https://push.example/1', keys: {} }) })),
  );
  const register = vi.fn(options.register ?? (async () => ({ pushManager: { subscribe } })));
  vi.stubGlobal('navigator', { ...navigator, serviceWorker: { register } });
  vi.stubGlobal('Notification', { requestPermission: vi.fn(async () => options.permission ?? 'granted') });
  const fetchMock = vi.fn(async () => new Response('{}', { status: options.serverOk === false ? 500 : 200 }));
  vi.stubGlobal('fetch', fetchMock);
  return { subscribe, fetchMock };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('subscribeToPush', () => {
  it('answers "unavailable" when the push service refuses with an AbortError, never rejecting', async () => {
    browserWith({
      subscribe: () =>
        Promise.reject(new DOMException('Registration failed - push service not available', 'AbortError')),
    });
    await expect(subscribeToPush(publicKey)).resolves.toEqual({
      state: 'not-subscribed',
      failure: 'unavailable',
    });
  });

  it('tells a blocked permission from a dismissed question', async () => {
    browserWith({ permission: 'denied' });
    await expect(subscribeToPush(publicKey)).resolves.toEqual({ state: 'denied', failure: 'blocked' });
    browserWith({ permission: 'default' });
    await expect(subscribeToPush(publicKey)).resolves.toEqual({
      state: 'not-subscribed',
      failure: 'dismissed',
    });
    browserWith({ subscribe: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) });
    await expect(subscribeToPush(publicKey)).resolves.toEqual({ state: 'denied', failure: 'blocked' });
  });

  it('reports an unexpected error and a refused registration as "failed"', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    browserWith({ register: () => Promise.reject(new TypeError('sw.js missing')) });
    await expect(subscribeToPush(publicKey)).resolves.toEqual({ state: 'not-subscribed', failure: 'failed' });
    expect(warn).toHaveBeenCalledWith('subscribing to push failed:', expect.any(TypeError));
    browserWith({ serverOk: false });
    await expect(subscribeToPush(publicKey)).resolves.toEqual({ state: 'not-subscribed', failure: 'failed' });
  });

  it('subscribes and registers the device with the server', async () => {
    const { subscribe, fetchMock } = browserWith({});
    await expect(subscribeToPush(publicKey)).resolves.toEqual({ state: 'subscribed', failure: null });
    expect(subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/user.php?push=1',
      expect.objectContaining({ method: 'POST' }),
    );
  });
});
