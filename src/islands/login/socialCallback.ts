/** The script of /login/social: state check, socialAuth, then on like a login (see socialLogin.ts). */
import { addTenancy } from '../../client/operations/addTenancy.ts';
import { socialLogin } from '../../client/operations/socialAuth.ts';
import { clearPendingCodes, pendingActivationCode } from '../../client/pendingCode.ts';
import { takeReturnTo } from '../../client/returnTo.ts';
import { browserStorage, writeTokens } from '../../client/storage.ts';
import { type ServerErrorCode, serverErrorCode, throttleAwareMessage } from '../../lib/errors.ts';
import { takeSocialAnswer } from './socialLogin.ts';

type Messages = {
  failed: string;
  errors: Partial<Record<ServerErrorCode, string>>;
  wait_one_minute?: string;
};

function showFailure(box: HTMLElement, text: string): void {
  box.querySelector('[data-social-status]')?.remove();
  const alert = document.createElement('div');
  alert.className = 'alert error';
  alert.setAttribute('role', 'alert');
  alert.textContent = text;
  box.append(alert);
  document.querySelector<HTMLElement>('[data-social-retry]')?.removeAttribute('hidden');
}

/** Runs once per page load of /login/social. */
export async function finishSocialLogin(): Promise<void> {
  const box = document.querySelector<HTMLElement>('[data-social-callback]');
  if (!box || box.dataset.started) return;
  box.dataset.started = 'true';
  const messages = JSON.parse(box.dataset.messages ?? '{}') as Messages;
  const answer = takeSocialAnswer(window.location.hash);
  // The token leaves the address bar and history at once.
  history.replaceState(null, '', window.location.pathname);
  if (!answer.ok) {
    console.warn('social login refused:', answer.reason);
    showFailure(box, messages.failed);
    return;
  }
  try {
    const tokens = await socialLogin(answer.pending.provider, answer.idToken, answer.pending.nonce);
    // A code from an activation link is applied as after signup; a refused one stays for the modal.
    const code = pendingActivationCode();
    if (code) {
      try {
        const token = tokens.account.access?.token;
        if (token) await addTenancy(code, token);
        else throw new Error('no account token');
        clearPendingCodes();
      } catch (err) {
        console.warn('activation code not applied:', serverErrorCode(err));
      }
    }
    writeTokens(browserStorage(), tokens);
    // A full load starts the session from the stored tokens and routes to the page the user was sent away
    // from (its tenancy is selected from the URL when it is theirs), else to the dashboard or no-tenancies.
    window.location.replace(takeReturnTo() ?? '/t/');
  } catch (err) {
    const text = throttleAwareMessage(serverErrorCode(err), err, messages, messages.failed);
    showFailure(box, text);
  }
}
