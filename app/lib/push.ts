import { reportCaught } from '#app/lib/report-caught.ts';

/** Web Push states shown in the UI (spec §4). */
export type PushState = 'unsupported' | 'unknown' | 'denied' | 'not-subscribed' | 'subscribed';

export function urlBase64ToUint8Array(base64: string): Uint8Array<ArrayBuffer> {
  const padding = '='.repeat((4 - (base64.length % 4)) % 4);
  const raw = atob((base64 + padding).replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export async function currentPushState(): Promise<PushState> {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window))
    return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription ? 'subscribed' : 'not-subscribed';
}

/**
 * Why turning push on did not work: the member blocked notifications for the site or closed the
 * question without answering, the browser's
 * push service could not be reached or refused (Chromium's AbortError "Registration failed", also
 * what a browser without a push service answers), or the server did not take the subscription.
 */
export type PushFailure = 'blocked' | 'dismissed' | 'unavailable' | 'failed';

export type PushOutcome = { state: PushState; failure: PushFailure | null };

/** A DOMException's name (thrown by the Push and Notifications APIs), else null. */
function domErrorName(error: unknown): string | null {
  return typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string'
    ? error.name
    : null;
}

export function pushFailureOf(error: unknown): PushFailure {
  const name = domErrorName(error);
  if (name === 'NotAllowedError') return 'blocked';
  if (name === 'AbortError' || name === 'InvalidStateError' || name === 'NotSupportedError')
    return 'unavailable';
  return 'failed';
}

/**
 * Asks for permission, subscribes this device and registers it with the server. Never rejects: a
 * refusal or a failure comes back as `failure`, for the page to say why and what to do.
 */
export async function subscribeToPush(publicKey: string): Promise<PushOutcome> {
  try {
    const registration = await navigator.serviceWorker.register('/sw.js');
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      // "default": the prompt was dismissed; asking again later may still work.
      return permission === 'denied'
        ? { state: 'denied', failure: 'blocked' }
        : { state: 'not-subscribed', failure: 'dismissed' };
    }
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: urlBase64ToUint8Array(publicKey),
    });
    const response = await fetch('/api/user.php?push=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(subscription.toJSON()),
    });
    return response.ok
      ? { state: 'subscribed', failure: null }
      : { state: 'not-subscribed', failure: 'failed' };
  } catch (error) {
    const failure = pushFailureOf(error);
    if (failure === 'failed') reportCaught('subscribing to push', error);
    return { state: failure === 'blocked' ? 'denied' : 'not-subscribed', failure };
  }
}
