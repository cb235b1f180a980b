// "Sign in with a passkey" on /auth/login (CONTRACT 10): asks the server for request options (a discoverable
// sign-in: the browser offers the passkeys it holds for this site), lets @simplewebauthn/browser run the
// ceremony, sends the answer back and, signed in (the answer set the cookies), goes where the page was going.
// Without JavaScript or WebAuthn the section stays hidden and the rest of the page works as before.
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

  // Only a path of this site (the server checked it too): never an address of another.
  function destination() {
    var wanted = section.getAttribute('data-redirect') || '';
    return /^\/(?![\/\\])/.test(wanted) ? wanted : '/admin';
  }

  function post(url, body) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
  }

  function show(text) {
    error.textContent = text;
    error.hidden = false;
  }

  async function signIn() {
    error.hidden = true;
    button.disabled = true;
    try {
      var options = await post('/auth/passkeys/login/options', {});
      if (!options.ok) return show(MESSAGES.failed);
      var response;
      try {
        response = await webauthn.startAuthentication({ optionsJSON: await options.json() });
      } catch (err) {
        return show(err && err.name === 'NotAllowedError' ? MESSAGES.cancelled : MESSAGES.failed);
      }
      var answer = await post('/auth/passkeys/login/verify', { response: response });
      if (!answer.ok) return show(MESSAGES.failed);
      window.location.assign(destination());
    } catch (err) {
      show(MESSAGES.failed);
    } finally {
      button.disabled = false;
    }
  }

  section.hidden = false;
  button.addEventListener('click', signIn);
})();
