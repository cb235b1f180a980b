// Live preview of the OTP code mail on /admin/plugins/otp-login: posts the form's values (with its CSRF
// token) to the preview endpoint as they are edited and shows the answer in the sandboxed iframe. Nothing
// is saved; the page works without this script (the preview then shows the saved settings).
(function () {
  'use strict';
  var form = document.getElementById('otp-settings');
  if (!form || !window.fetch || !window.URLSearchParams) return;
  var frame = document.getElementById(form.getAttribute('data-preview'));
  var status = document.getElementById('otp-preview-status');
  var url = form.getAttribute('data-preview-url');
  var token = form.querySelector('input[name="_csrf"]');
  var timer = null;
  var sent = 0;

  function describe(errors) {
    var names = Object.keys(errors || {});
    if (names.length === 0) return 'Preview of the values above (not saved yet).';
    return 'Not valid yet: ' + names.map(function (name) {
      var input = form.querySelector('[name="' + name + '"]');
      var label = input && input.id ? form.querySelector('label[for="' + input.id + '"]') : null;
      return (label ? label.textContent.replace(/\s*\*$/, '') : name) + ' ' + errors[name];
    }).join('; ') + '.';
  }

  function refresh() {
    var request = ++sent;
    var body = new URLSearchParams(new FormData(form));
    fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Accept': 'application/json', 'X-CSRF-Token': token ? token.value : '' },
      body: body,
    })
      .then(function (response) {
        if (!response.ok) throw new Error('preview answered ' + response.status);
        return response.json();
      })
      .then(function (answer) {
        if (request !== sent) return; // an older answer arriving late
        // A property, not markup: the HTML goes only into the sandboxed frame's document.
        frame.srcdoc = answer.html;
        status.textContent = describe(answer.errors);
      })
      .catch(function () {
        if (request === sent) status.textContent = 'The preview could not be updated.';
      });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  }

  form.addEventListener('input', schedule);
  form.addEventListener('change', schedule);
})();
