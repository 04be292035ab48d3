import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

import { ApiError, bff, setCsrfToken, whenSignedOut } from '../api/client';

/** The signed-in operator as the console's backend describes her session. */
export interface Me {
  user_id: string;
  tenant_id: string;
  username: string;
  role: string;
  permissions: string[];
  csrf_token: string;
  expires_at: string;
  idle_expires_at: string;
}

interface Session {
  me?: Me;
  /** True until the first answer of GET /api/session. */
  checking: boolean;
  error?: ApiError;
  signedIn: (me: Me) => void;
  signOut: (everywhere?: boolean) => Promise<void>;
  can: (...permissions: string[]) => boolean;
  retry: () => void;
  ended: boolean;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me>();
  const [checking, setChecking] = useState(true);
  const [error, setError] = useState<ApiError>();
  const [ended, setEnded] = useState(false);
  const [round, setRound] = useState(0);

  const signedIn = useCallback((next: Me) => {
    setCsrfToken(next.csrf_token);
    setEnded(false);
    setMe(next);
  }, []);

  useEffect(() => {
    whenSignedOut(() => {
      setMe(undefined);
      setEnded(true);
    });
    setChecking(true);
    bff<Me>('GET', '/api/session').then(
      (found) => {
        signedIn(found);
        setError(undefined);
        setChecking(false);
      },
      (err: ApiError) => {
        setMe(undefined);
        setEnded(false);
        if (err.status !== 401) setError(err);
        else setError(undefined);
        setChecking(false);
      },
    );
  }, [round, signedIn]);

  const signOut = useCallback(async (everywhere = false) => {
    await bff(everywhere ? 'POST' : 'DELETE', everywhere ? '/api/session/end-all' : '/api/session').catch(
      () => undefined,
    );
    setCsrfToken('');
    setMe(undefined);
  }, []);

  const value = useMemo<Session>(
    () => ({
      me,
      checking,
      error,
      ended,
      signedIn,
      signOut,
      retry: () => setRound((r) => r + 1),
      can: (...permissions) =>
        permissions.some((p) =>
          p.endsWith('*')
            ? (me?.permissions ?? []).some((held) => held.startsWith(p.slice(0, -1)))
            : me?.permissions.includes(p),
        ),
    }),
    [me, checking, error, ended, signedIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
