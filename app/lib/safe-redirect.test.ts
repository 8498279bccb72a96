import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect.ts';

const fallback = '/members';

describe('safeRedirectPath', () => {
  it.each([
    ['/members', '/members'],
    ['/members/12?tab=photos#top', '/members/12?tab=photos#top'],
    ['/chats/5', '/chats/5'],
    ['/search?q=%2F%2Fnot-a-host', '/search?q=%2F%2Fnot-a-host'],
    ['/members/./12', '/members/12'],
    ['/javascript:alert(1)', '/javascript:alert(1)'],
  ])('keeps the same-site path %j', (input, expected) => {
    expect(safeRedirectPath(input, fallback)).toBe(expected);
  });

  it.each([
    // the audit's finding: the browser drops the tab and reads //evil.test
    '/\t/evil.test',
    '/%09/evil.test',
    '/%0a/evil.test',
    '/%0d%0a/evil.test',
    '/\n/evil.test',
    '/\r/evil.test',
    '/%00/evil.test',
    '/\u0000',
    '/%7F',
    // protocol-relative and backslash forms
    '//evil.test',
    '///evil.test',
    '/\\evil.test',
    '\\\\evil.test',
    '\\/evil.test',
    '/%2F/evil.test',
    '/%2f%2fevil.test',
    '%2F%2Fevil.test',
    '/%5Cevil.test',
    '/%5C%5Cevil.test',
    '/%252F%252Fevil.test',
    '/%25252F%25252Fevil.test',
    // dot segments that resolve to //host
    '/.//evil.test',
    '/a/..//evil.test',
    '/%2e%2e//evil.test',
    '/members/../..//evil.test',
    // absolute URLs and schemes
    'https://evil.test',
    'http:/evil.test',
    'https:evil.test',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    ' /members',
    ' //evil.test',
    'members',
    'evil.test',
    // malformed or empty
    '/%E0%A4%A',
    '%',
    '',
    `/${'a'.repeat(2001)}`,
  ])('refuses %j', (input) => {
    expect(safeRedirectPath(input, fallback)).toBe(fallback);
  });

  it.each([null, undefined, 42, {}, ['/members']])('refuses a non-string %j', (input) => {
    expect(safeRedirectPath(input, '/home')).toBe('/home');
  });
});
