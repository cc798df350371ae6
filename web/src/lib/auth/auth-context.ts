import type { TokenResponse, UserProfile } from '@portal/contracts';
import { createContext, useContext, type Dispatch } from 'react';
import type { AuthEvent, AuthState } from './auth-machine';

export interface AuthContextValue {
  state: AuthState;
  dispatch: Dispatch<AuthEvent>;
  profile: UserProfile | null;
  /** Keeps the tokens of a successful sign-in and enters signedIn. */
  completeSignIn(tokens: TokenResponse): void;
  signOut(): Promise<void>;
  /** Refetches whoami (after Back as, merchant changes). */
  refreshProfile(): Promise<void>;
  refreshToken(): Promise<boolean>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** The signed-in profile; only inside the signed-in shell. */
export function useProfile(): UserProfile {
  const { profile } = useAuth();
  if (!profile) throw new Error('useProfile before the profile loaded');
  return profile;
}
