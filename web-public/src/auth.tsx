import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { ApiError, api, type Me } from './api';

/** Who is signed in, as the API says (GET /api/auth/me); the session itself is a cookie. */
interface Auth {
  /** undefined while asking, null when signed out. */
  me: Me | null | undefined;
  refresh(): Promise<Me | null>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<Auth | undefined>(undefined);

/** Only a page that had a session has the XSRF cookie; without it, nobody is signed in. */
function mayHaveSession(): boolean {
  return document.cookie.split('; ').some((part) => part.startsWith('XSRF-TOKEN='));
}

/** Asks the API who is signed in; null when nobody is (or the session ended). */
async function whoIsSignedIn(): Promise<Me | null> {
  if (!mayHaveSession()) return null;
  try {
    return await api<Me>('/api/auth/me');
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) console.warn(error);
    return null;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);

  const refresh = useCallback(async () => {
    const who = await whoIsSignedIn();
    setMe(who);
    return who;
  }, []);

  const signOut = useCallback(async () => {
    try {
      await api('/api/auth/logout', { method: 'POST' });
    } finally {
      setMe(null);
    }
  }, []);

  useEffect(() => {
    // The first answer arrives as the page has just hydrated, and every part that shows who is
    // signed in renders again with it. As a transition React renders that in slices between the
    // browser's tasks; as a plain update it was one long task, on a phone the longest after
    // hydration. (Later answers, after signing in or out, are plain updates: the next screen
    // depends on them.)
    void whoIsSignedIn().then((who) => startTransition(() => setMe(who)));
  }, []);

  const auth = useMemo(() => ({ me, refresh, signOut }), [me, refresh, signOut]);
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth outside AuthProvider');
  return context;
}
