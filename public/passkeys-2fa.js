// "Use a passkey" on the second-step page /auth/2fa (CONTRACT 9 + 10): options for this sign-in's passkeys (the
// challenge rides in the page's HttpOnly cookie), the ceremony by @simplewebauthn/browser, then the answer to
// /auth/2fa/verify as a page would post it: the server redirects where the sign-in was going, and so do we.
(function () {
  'use strict';
  var section = document.getElementById('passkey-second-step');
  var webauthn = window.SimpleWebAuthnBrowser;
  if (!section || !webauthn || !window.fetch || !webauthn.browserSupportsWebAuthn()) return;
  var button = document.getElementById('passkey-second-step-button');
  var error = document.getElementById('passkey-second-step-error');
  var MESSAGES = {
    failed: 'The passkey was not accepted. Try again, or enter a code.',
    cancelled: 'Using the passkey was cancelled.',
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

  async function answer() {
    error.hidden = true;
    error.className = '';
    button.disabled = true;
    try {
      var options = await post('/auth/2fa/passkey/options', {}, 'application/json');
      if (!options.ok) return show(MESSAGES.failed);
      var response;
      try {
        response = await webauthn.startAuthentication({ optionsJSON: await options.json() });
      } catch (err) {
        return show(err && err.name === 'NotAllowedError' ? MESSAGES.cancelled : MESSAGES.failed);
      }
      // A page answer: signed in, the server redirects (fetch follows) to where the sign-in was going.
      var verified = await post('/auth/2fa/verify', { passkey: response }, 'text/html');
      if (!verified.ok || !verified.redirected) return show(MESSAGES.failed);
      window.location.assign(verified.url);
    } catch (err) {
      show(MESSAGES.failed);
    } finally {
      button.disabled = false;
    }
  }

  section.hidden = false;
  button.addEventListener('click', answer);
})();
