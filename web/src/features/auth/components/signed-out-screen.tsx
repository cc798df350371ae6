import type { AuthState } from '../../../lib/auth/auth-machine';
import { ForgotPasswordForm } from './forgot-password-form';
import { NewPasswordForm } from './new-password-form';
import { ResetPasswordForm } from './reset-password-form';
import { SignInForm } from './sign-in-form';

/** Signed-out screens, switched by the auth state's form type (spec 2.1). */
export function SignedOutScreen({ state }: { state: AuthState }) {
  switch (state.name) {
    case 'confirmSignUp':
      return <NewPasswordForm username={state.username} session={state.session} />;
    case 'resetPassword':
      return <ResetPasswordForm initialUsername={state.username} />;
    case 'forgotPassword':
      return <ForgotPasswordForm initialUsername={state.username} />;
    case 'signIn':
      return (
        <SignInForm key={state.notice ?? 'sign-in'} notice={state.notice} initialUsername={state.username} />
      );
    case 'Unauthenticated':
      return <SignInForm error={state.error} />;
    default:
      return <SignInForm />;
  }
}
