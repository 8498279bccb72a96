import { useEffect, useRef } from 'react';

/** Whether a key press happens while typing (an input, a textarea, a select, an editable element). */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The console's "next" key: N outside a text field, Alt+N anywhere (the key code, as Alt changes the letter on a Mac). */
export function isNextShortcut(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey) return false;
  if (event.altKey) return event.code === 'KeyN';
  return !event.shiftKey && (event.key === 'n' || event.key === 'N') && !typingIn(event.target);
}

/** Listens to key presses on the page while the component is mounted. */
export function useKeydown(handler: (event: KeyboardEvent) => void): void {
  const current = useRef(handler);
  current.current = handler;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => current.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
}
