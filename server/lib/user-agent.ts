/**
 * The browser and system a User-Agent names, for the member's list of signed-in devices. A small
 * parser of our own for the major browsers (no parser package is a dependency, and the list needs
 * names, not versions): the order matters, as most browsers also claim to be Chrome and Safari.
 */
export type Device = { browser: string | null; os: string | null };

const browsers: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\bChrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const systems: readonly [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\biPad\b/, 'iPadOS'],
  [/\biPhone\b|\biPod\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function parseUserAgent(userAgent: string | null | undefined): Device {
  if (!userAgent) return { browser: null, os: null };
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  const os = systems.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  return { browser, os };
}
