// A strength meter for new-password fields (inputs marked data-strength-meter). A rough estimate drawn in the
// browser as the user types; the server's rule (zxcvbn and the common-password list) decides on submit and
// names the reason next to the field. Without JavaScript the field is a plain password field.
(function () {
  'use strict';
  var LABELS = ['Too easy to guess', 'Weak', 'Fair', 'Good', 'Strong'];
  var COMMON = /^(?:password|passw0rd|qwerty|letmein|welcome|admin|iloveyou|monkey|dragon|football|baseball|abc123|111111|123123)/i;

  function pool(value) {
    var size = 0;
    if (/[a-z]/.test(value)) size += 26;
    if (/[A-Z]/.test(value)) size += 26;
    if (/[0-9]/.test(value)) size += 10;
    if (/[^a-zA-Z0-9]/.test(value)) size += 33;
    return size;
  }

  function estimate(value) {
    if (value.length < 8 || COMMON.test(value)) return 0;
    // Repeats and runs count once: "aaaaaaaa" or "12345678" is one guess, not eight characters.
    var distinct = value.replace(/(.)\1+/g, '$1').replace(/(?:0123|1234|2345|3456|4567|5678|6789|abcd|bcde|cdef|qwer|wert|asdf)/gi, '#');
    var guessesLog10 = distinct.length * Math.log(pool(value)) / Math.LN10;
    if (guessesLog10 < 6) return 0;
    if (guessesLog10 < 9) return 1;
    if (guessesLog10 < 12) return 2;
    if (guessesLog10 < 15) return 3;
    return 4;
  }

  function attach(input) {
    var box = document.createElement('div');
    box.className = 'strength';
    box.id = input.id + '-strength';
    var meter = document.createElement('meter');
    meter.min = 0;
    meter.max = 4;
    meter.low = 2;
    meter.high = 3;
    meter.optimum = 4;
    meter.value = 0;
    var text = document.createElement('span');
    text.className = 'strength-text';
    text.setAttribute('aria-live', 'polite');
    box.appendChild(meter);
    box.appendChild(text);
    input.insertAdjacentElement('afterend', box);
    var described = (input.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    described.push(box.id);
    input.setAttribute('aria-describedby', described.join(' '));

    function update() {
      if (input.value.length === 0) {
        meter.value = 0;
        text.textContent = '';
        box.setAttribute('data-score', '');
        return;
      }
      var score = estimate(input.value);
      meter.value = score;
      text.textContent = 'Strength: ' + LABELS[score] + (score < 2 ? ' (will be refused)' : '');
      box.setAttribute('data-score', String(score));
    }
    input.addEventListener('input', update);
    update();
  }

  function start() {
    var inputs = document.querySelectorAll('input[data-strength-meter]');
    for (var i = 0; i < inputs.length; i++) attach(inputs[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
