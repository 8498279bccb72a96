// Service worker: shows Web Push notifications and opens the right screen when one is clicked, and
// shows the site's offline page (in the member's language, cached at install) when a page cannot load.
const offlineCache = 'offline-v1';
const offlineUrl = '/offline.html';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(offlineCache)
      .then((cache) => cache.add(new Request(offlineUrl, { cache: 'reload', credentials: 'same-origin' })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith('offline-') && key !== offlineCache)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(
    fetch(event.request).catch(() =>
      caches.match(offlineUrl, { cacheName: offlineCache }).then((page) => page ?? Response.error()),
    ),
  );
});

self.addEventListener('push', (event) => {
  let data = { title: '', body: '', url: '/', tag: 'notification' };
  try {
    data = { ...data, ...event.data.json() };
  } catch {
    data.body = event.data ? event.data.text() : '';
  }
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: data.body,
      tag: data.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: data.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url && 'focus' in client);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
