/** The price after a percentage discount, in integer cents, rounded as the server rounds it. */
export function discounted(cents: number, percentage: number): number {
  return Math.round((cents * (100 - percentage)) / 100);
}
