// The passkey buttons of the sign-in pages (CONTRACT 10): "Sign in with a passkey" on /auth/login and "Use a passkey"
// on the second-step page /auth/2fa. Each asks the server for request options, lets @simplewebauthn/browser run the
// ceremony, and sends the answer as a page would post it: the server answers with a redirect (fetch follows) to where
// the sign-in was going (or, from /auth/login, to /auth/2fa when the passkey did not verify its holder and the account
// has a second factor). Without JavaScript or WebAuthn the sections stay hidden.
(function () {
  'use strict';
  var webauthn = window.SimpleWebAuthnBrowser;
  if (!webauthn || !window.fetch || !webauthn.browserSupportsWebAuthn()) return;

  function post(url, body, accept) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: accept },
      body: JSON.stringify(body),
    });
  }

  /** Wires one section's button: options from `optionsUrl`, the assertion to `verifyUrl` in the body `answerOf` makes. */
  function passkeyButton(id, optionsUrl, verifyUrl, answerOf, messages) {
    var section = document.getElementById(id);
    if (!section) return;
    var button = document.getElementById(id + '-button');
    var error = document.getElementById(id + '-error');
    // The class comes with the text: hidden and empty, the paragraph is no error of the page.
    function show(text) {
      error.textContent = text;
      error.className = 'error';
      error.hidden = false;
    }
    async function run() {
      error.hidden = true;
      error.className = '';
      button.disabled = true;
      try {
        var options = await post(optionsUrl, {}, 'application/json');
        if (!options.ok) return show(messages.failed);
        var response;
        try {
          response = await webauthn.startAuthentication({ optionsJSON: await options.json() });
        } catch (err) {
          return show(err && err.name === 'NotAllowedError' ? messages.cancelled : messages.failed);
        }
        var answer = await post(verifyUrl, answerOf(response, section), 'text/html');
        if (!answer.ok || !answer.redirected) return show(messages.failed);
        window.location.assign(answer.url);
      } catch (err) {
        show(messages.failed);
      } finally {
        button.disabled = false;
      }
    }
    section.hidden = false;
    button.addEventListener('click', run);
  }

  // A discoverable sign-in: the browser offers the passkeys it holds for this site. The redirect the page carried goes
  // back to the server, which checks it as for the password form.
  passkeyButton('passkey-sign-in', '/auth/passkeys/login/options', '/auth/passkeys/login/verify', function (response, section) {
    var redirect = section.getAttribute('data-redirect');
    return redirect ? { response: response, redirect: redirect } : { response: response };
  }, { failed: 'Passkey sign-in failed. Try again, or sign in another way.', cancelled: 'Passkey sign-in was cancelled.' });

  // The second step: the challenge rides in the page's HttpOnly cookie.
  passkeyButton('passkey-second-step', '/auth/2fa/passkey/options', '/auth/2fa/verify', function (response) {
    return { passkey: response };
  }, { failed: 'The passkey was not accepted. Try again, or enter a code.', cancelled: 'Using the passkey was cancelled.' });
})();
