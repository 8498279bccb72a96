/**
 * The text of a message not sent yet, kept in this tab's storage while the member tops up: it
 * survives a trip to the checkout and back.
 */
const draftKey = (conversation: number) => `chat-draft:${conversation}`;

export function savedDraft(conversation: number): string | null {
  return sessionStorage.getItem(draftKey(conversation));
}

export function keepDraft(conversation: number, text: string): void {
  sessionStorage.setItem(draftKey(conversation), text);
}

export function dropDraft(conversation: number): void {
  sessionStorage.removeItem(draftKey(conversation));
}
