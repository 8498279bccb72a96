import { useEffect, useRef, useState } from 'react';
import { reportCaught } from '#app/lib/report-caught.ts';
import type { AdminEvent } from '#contract/admin.ts';

export type AdminSocketStatus = 'connecting' | 'ready' | 'reconnecting';

/** 1 s, 2 s, 4 s … at most 30 s between reconnects. */
const reconnectDelayMs = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/**
 * The back office's live events (GET /api/admin/ws): one socket while the page is open, reconnecting
 * with backoff. A `ready` after a reconnect is the cue to reload what may have been missed.
 */
export function useAdminEvents(onEvent: (event: AdminEvent) => void): AdminSocketStatus {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [status, setStatus] = useState<AdminSocketStatus>('connecting');
  useEffect(() => {
    let socket: WebSocket | null = null;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      const protocol = window.location.protocol === 'https:' ? 'wss' : 'ws';
      socket = new WebSocket(`${protocol}://${window.location.host}/api/admin/ws`);
      socket.onmessage = (message) => {
        let event: AdminEvent;
        try {
          event = JSON.parse(String(message.data)) as AdminEvent;
        } catch (error) {
          reportCaught('reading a back-office live event', error);
          return;
        }
        if (event.type === 'ready') {
          attempt = 0;
          setStatus('ready');
        }
        handler.current(event);
      };
      socket.onclose = () => {
        if (stopped) return;
        setStatus('reconnecting');
        timer = setTimeout(open, reconnectDelayMs(attempt++));
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, []);
  return status;
}

/** Human durations for the console: "45 s", "3 min", "2 h 5 min" (units are universal enough here). */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The name of a language in the page's language, e.g. "Dutch" for nl on an English page. */
export function languageName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? code;
  } catch {
    // expected: a code Intl does not know is shown as it is.
    return code;
  }
}
