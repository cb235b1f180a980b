// "Sign in with a passkey" on /auth/login (CONTRACT 10): asks the server for request options (a discoverable
// sign-in: the browser offers the passkeys it holds for this site), lets @simplewebauthn/browser run the
// ceremony and sends the answer as a page would post it: the server answers with a redirect (fetch follows)
// to where the page was going, or to the second step (/auth/2fa) when the passkey did not verify its holder
// and the account has a second factor. Without JavaScript or WebAuthn the section stays hidden.
(function () {
  'use strict';
  var section = document.getElementById('passkey-sign-in');
  var webauthn = window.SimpleWebAuthnBrowser;
  if (!section || !webauthn || !window.fetch || !webauthn.browserSupportsWebAuthn()) return;
  var button = document.getElementById('passkey-sign-in-button');
  var error = document.getElementById('passkey-sign-in-error');
  var MESSAGES = {
    failed: 'Passkey sign-in failed. Try again, or sign in another way.',
    cancelled: 'Passkey sign-in was cancelled.',
  };

  function post(url, body, accept) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: accept },
      body: JSON.stringify(body),
    });
  }

  // The class comes with the text: hidden and empty, the paragraph is no error of the page.
  function show(text) {
    error.textContent = text;
    error.className = 'error';
    error.hidden = false;
  }

  async function signIn() {
    error.hidden = true;
    error.className = '';
    button.disabled = true;
    try {
      var options = await post('/auth/passkeys/login/options', {}, 'application/json');
      if (!options.ok) return show(MESSAGES.failed);
      var response;
      try {
        response = await webauthn.startAuthentication({ optionsJSON: await options.json() });
      } catch (err) {
        return show(err && err.name === 'NotAllowedError' ? MESSAGES.cancelled : MESSAGES.failed);
      }
      // The redirect the page carried goes back to the server, which checks it as for the password form.
      var redirect = section.getAttribute('data-redirect');
      var answer = await post('/auth/passkeys/login/verify', redirect ? { response: response, redirect: redirect } : { response: response }, 'text/html');
      if (!answer.ok || !answer.redirected) return show(MESSAGES.failed);
      window.location.assign(answer.url);
    } catch (err) {
      show(MESSAGES.failed);
    } finally {
      button.disabled = false;
    }
  }

  section.hidden = false;
  button.addEventListener('click', signIn);
})();
