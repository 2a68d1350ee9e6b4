import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
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

export function AuthProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);

  const refresh = useCallback(async () => {
    if (!mayHaveSession()) {
      setMe(null);
      return null;
    }
    try {
      const who = await api<Me>('/api/auth/me');
      setMe(who);
      return who;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) console.warn(error);
      setMe(null);
      return null;
    }
  }, []);

  const signOut = useCallback(async () => {
    try {
      await api('/api/auth/logout', { method: 'POST' });
    } finally {
      setMe(null);
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return <AuthContext.Provider value={{ me, refresh, signOut }}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth outside AuthProvider');
  return context;
}
