import { data, redirect } from 'react-router';
import type { ErrorBody } from '#contract/common.ts';
import { serverApi } from './api.ts';
import type { FormErrors } from './form-errors.ts';
import type { ApiCaller, ApiRequest } from './load-context.ts';
import { safeRedirectPath } from './safe-redirect.ts';
import { siteEntrySkipCookie, siteEntrySkipDays } from './shell-rules.ts';

/** What the lander's two-step form hands back when something is wrong: errors and the values kept. */
export type LanderSignupResult = {
  errors: FormErrors;
  values: { gender: string; seeking: string; email: string; name: string; date_of_birth: string };
};

const genders = ['male', 'female'] as const;
const seekings = ['male', 'female', 'both'] as const;

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** The 18+ confirmation of a lander counts for the whole site: the site-entry notice stays closed. */
export function siteEntryCookie(secure: boolean): string {
  return `${siteEntrySkipCookie}=1; Path=/; Max-Age=${siteEntrySkipDays * 24 * 3600}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

function invalid(fields: Record<string, string>, values: LanderSignupResult['values']) {
  const body: ErrorBody = { error: 'validation_failed', message: '', fields };
  return data<LanderSignupResult>({ errors: { status: 422, body }, values }, { status: 422 });
}

/**
 * The action of every lander and member landing page (no JavaScript needed): "enter" closes the
 * 18+ notice; "signup" creates the account (step two), saves gender and seeking (step one), keeps
 * the 18+ confirmation and continues to `next`. The tracking cookie goes along with the visitor's
 * cookies, so the member carries the ad click's network, ref and subs.
 */
export async function landerSignupAction(
  api: ApiCaller,
  request: Request,
  options: { next: string; contact?: number },
) {
  const form = await request.formData();
  const secure = new URL(request.url).protocol === 'https:';
  if (text(form, 'intent') === 'enter') {
    const back = new URL(request.url);
    return redirect(`${back.pathname}${back.search}`, {
      status: 303,
      headers: { 'Set-Cookie': siteEntryCookie(secure) },
    });
  }
  const values = {
    gender: text(form, 'gender'),
    seeking: text(form, 'seeking'),
    email: text(form, 'email'),
    name: text(form, 'name'),
    date_of_birth: text(form, 'date_of_birth'),
  };
  const gender = genders.find((option) => option === values.gender);
  const seeking = seekings.find((option) => option === values.seeking);
  if (!gender || !seeking) {
    return invalid(
      { ...(gender ? {} : { gender: 'required' }), ...(seeking ? {} : { seeking: 'required' }) },
      values,
    );
  }
  const message = text(form, 'signup_message');
  const signup = await serverApi(api)('POST /api/signup.php', {
    body: {
      email: values.email,
      name: values.name || text(form, 'name_suggestion'),
      password: typeof form.get('password') === 'string' ? String(form.get('password')) : '',
      date_of_birth: values.date_of_birth,
      ...(options.contact ? { profile: options.contact } : {}),
      ...(options.contact && message ? { signup_message: message } : {}),
    },
  });
  if (!signup.ok) {
    return data<LanderSignupResult>(
      { errors: { status: signup.status, body: signup.error }, values },
      { status: signup.status },
    );
  }
  // Step one's answers, as the new member (the session the signup just set).
  const asNewMember: ApiCaller = <T>(path: string, request?: ApiRequest) =>
    api<T>(path, { ...request, cookies: signup.setCookies });
  const completed = await serverApi(asNewMember)('POST /api/complete-signup.php', {
    body: { gender, seeking },
  });
  const headers = new Headers();
  for (const cookie of [...signup.setCookies, ...completed.setCookies]) headers.append('Set-Cookie', cookie);
  headers.append('Set-Cookie', siteEntryCookie(secure));
  return redirect(safeRedirectPath(options.next, '/signup-matches'), { headers });
}
