// "Add a passkey" on /admin/profile/security (CONTRACT 10): asks the server for creation options, lets
// @simplewebauthn/browser run the ceremony, sends the answer with the optional name, and reloads the page with
// the server's notice. Adding is a step-up action: a sign-in older than 10 minutes is sent to the step-up prompt
// and comes back here. Without JavaScript or WebAuthn the form stays hidden (Remove still works: it is a form post).
(function () {
  'use strict';
  var form = document.getElementById('passkey-add');
  var webauthn = window.SimpleWebAuthnBrowser;
  if (!form || !webauthn || !window.fetch || !webauthn.browserSupportsWebAuthn()) return;
  var error = document.getElementById('passkey-add-error');
  var button = form.querySelector('button[type="submit"]');
  var token = form.querySelector('input[name="_csrf"]').value;
  var PROFILE = '/admin/profile/security';
  var MESSAGES = {
    failed: 'The passkey was not added. Please try again.',
    cancelled: 'Adding the passkey was cancelled.',
    known: 'This device already holds a passkey for your account.',
  };

  function post(url, body) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': token },
      body: JSON.stringify(body),
    });
  }

  // The class comes with the text: hidden and empty, the paragraph is no error of the page.
  function show(text) {
    error.textContent = text;
    error.className = 'error';
    error.hidden = false;
  }

  /** The server's own words for a refusal it explains (409, a validation error), else the general one. */
  async function reasonOf(answer) {
    if (answer.status === 403) {
      var body = await answer.json().catch(function () { return {}; });
      if (body.stepUp) {
        window.location.assign('/auth/step-up?redirect=' + encodeURIComponent(PROFILE));
        return null;
      }
    }
    if (answer.status === 409 || answer.status === 400) {
      var refused = await answer.json().catch(function () { return {}; });
      if (refused.errors && refused.errors.name) return 'Name ' + refused.errors.name + '.';
      if (typeof refused.error === 'string' && refused.error !== 'Validation failed') return refused.error;
    }
    return MESSAGES.failed;
  }

  async function add(event) {
    event.preventDefault();
    error.hidden = true;
    error.className = '';
    button.disabled = true;
    try {
      var options = await post('/auth/passkeys/register/options', {});
      if (!options.ok) {
        var why = await reasonOf(options);
        return why && show(why);
      }
      var response;
      try {
        response = await webauthn.startRegistration({ optionsJSON: await options.json() });
      } catch (err) {
        if (err && err.name === 'InvalidStateError') return show(MESSAGES.known);
        return show(err && err.name === 'NotAllowedError' ? MESSAGES.cancelled : MESSAGES.failed);
      }
      var name = form.elements.name.value.trim();
      var answer = await post('/auth/passkeys/register/verify', name ? { response: response, name: name } : { response: response });
      if (!answer.ok) {
        var reason = await reasonOf(answer);
        return reason && show(reason);
      }
      window.location.assign(PROFILE + '?notice=passkey_added');
    } catch (err) {
      show(MESSAGES.failed);
    } finally {
      button.disabled = false;
    }
  }

  form.hidden = false;
  document.getElementById('passkey-add-unsupported').hidden = true;
  form.addEventListener('submit', add);
})();
