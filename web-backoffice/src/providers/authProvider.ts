import type { Me } from '@offers/api/contracts';
import type { AuthProvider } from 'react-admin';
import { HttpError } from 'react-admin';
import { LOCALE_KEY } from '../i18n/i18nProvider';
import { API_URL } from './dataProvider';
import { httpClient, xsrfToken } from './httpClient';

export type SignIn =
  | { mode: 'admin'; username: string; email?: string; password: string }
  | { mode: 'merchant'; userName: string; password: string };

/** Who is signed in, asked once per page load and after each sign-in. */
let me: Promise<Me> | undefined;

export function currentAccount(): Promise<Me> {
  // The XSRF cookie lives exactly as long as the session cookie: without it nobody is signed in,
  // and asking would only earn a 401 that the browser logs as an error on every visitor's page.
  if (!xsrfToken()) return Promise.reject(new HttpError('ra.auth.auth_check_error', 401));
  me ??= httpClient(`${API_URL}/auth/me`).then(({ json }) => json as Me);
  me.catch(() => {
    me = undefined;
  });
  return me;
}

/** Everything the browser holds for the back-office, except the chosen language. */
function forgetEverything() {
  me = undefined;
  const locale = localStorage.getItem(LOCALE_KEY);
  localStorage.clear();
  sessionStorage.clear();
  if (locale) localStorage.setItem(LOCALE_KEY, locale);
}

export const authProvider: AuthProvider = {
  async login(params: SignIn) {
    const [path, body, failed] =
      params.mode === 'admin'
        ? [
            'auth/admin/login',
            {
              username: params.username,
              password: params.password,
              ...(params.email && { email: params.email }),
            },
            'offers.signIn.adminFailed',
          ]
        : [
            'auth/merchants/login',
            { userName: params.userName, password: params.password },
            'offers.signIn.merchantFailed',
          ];
    me = undefined;
    let answer: { scheduledDeletion?: { eraseAfter: string } };
    try {
      ({ json: answer } = await httpClient(`${API_URL}/${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
      }));
    } catch (error) {
      // Too many attempts has its own message; any other refusal says only that it failed.
      if (error instanceof HttpError && error.status === 429) throw new Error(error.message);
      throw new Error(failed);
    }
    const account = await currentAccount();
    if (account.role === 'user') {
      await authProvider.logout({});
      throw new Error(failed);
    }
    // A merchant whose account is scheduled for deletion lands on its profile, which says when
    // and offers to keep the account.
    return answer.scheduledDeletion ? { redirectTo: '/profile' } : undefined;
  },
  async logout() {
    try {
      await httpClient(`${API_URL}/auth/logout`, { method: 'POST' });
    } catch {
      // Already signed out or the session expired: nothing left to end.
    }
    forgetEverything();
  },
  async checkAuth() {
    const account = await currentAccount();
    if (account.role === 'user') throw new Error('ra.auth.auth_check_error');
  },
  async checkError(error) {
    if (error?.status === 401) {
      forgetEverything();
      throw error;
    }
  },
  async getPermissions() {
    try {
      return (await currentAccount()).role;
    } catch {
      return undefined;
    }
  },
  async getIdentity() {
    const account = await currentAccount();
    return { id: account.id, fullName: account.name };
  },
};
