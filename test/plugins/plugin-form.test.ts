import assert from 'node:assert/strict';
import { settingAt, settingControls, settingsFromForm } from '../../src/plugins/plugin-form';
import { emailPlugin } from '../../src/plugins/email.plugin';
import { otpLoginPlugin } from '../../src/plugins/otp-login.plugin';
import { oauthProvidersPlugin } from '../../src/plugins/oauth-providers.plugin';

describe('plugin forms: controls and values from the plugin\'s own schema', () => {
  it('when the OTP plugin is read, then each setting is a control with the schema\'s bounds', () => {
    const controls = Object.fromEntries(settingControls(otpLoginPlugin).map((control) => [control.name, control]));
    assert.deepEqual(Object.keys(controls), ['codeLength', 'codeExpiryMinutes', 'maxAttempts', 'rateLimitPerHour', 'allowNewUserRegistration',
      'logoUrl', 'logoWidth', 'logoBorderWidth', 'logoBorderColor', 'loginUrl', 'loginButtonText']);
    assert.deepEqual(controls.codeLength, { name: 'codeLength', kind: 'number', min: 4, max: 8 });
    assert.deepEqual(controls.logoBorderWidth, { name: 'logoBorderWidth', kind: 'number', min: 0, max: 20 });
    assert.deepEqual(controls.allowNewUserRegistration, { name: 'allowNewUserRegistration', kind: 'boolean' });
    assert.deepEqual(controls.loginUrl, { name: 'loginUrl', kind: 'text', secret: undefined });
  });

  it('when nested settings have secrets, then the controls are dot paths and the secrets are marked by kind', () => {
    const oauth = settingControls(oauthProvidersPlugin).filter((control) => control.secret);
    assert.deepEqual(oauth.map((control) => [control.name, control.secret]), [['providers.github.clientSecret', 'value'], ['providers.google.clientSecret', 'value']]);
    const email = settingControls(emailPlugin).filter((control) => control.secret);
    assert.deepEqual(email.map((control) => [control.name, control.secret]), [['smtpUrl', 'url-password'], ['apiKey', 'value']]);
  });

  it('when a form is converted, then numbers, checkboxes and blanks get the schema\'s types and unconvertible text is passed on for the schema to refuse', () => {
    const patch = settingsFromForm(otpLoginPlugin, {
      codeLength: ' 8 ', codeExpiryMinutes: 'ten', maxAttempts: '', allowNewUserRegistration: ['off', 'on'], logoUrl: '  https://x.test/l.png ', loginButtonText: '',
      active: 'on', unrelated: 'ignored',
    });
    assert.deepEqual(patch, { codeLength: 8, codeExpiryMinutes: 'ten', maxAttempts: null, allowNewUserRegistration: true, logoUrl: 'https://x.test/l.png', loginButtonText: null });
  });

  it('when a secret field is blank, then it is left out (the stored one stays); a typed one and nested paths are set', () => {
    const patch = settingsFromForm(oauthProvidersPlugin, { 'providers.github.clientId': 'id-1', 'providers.github.clientSecret': '', 'providers.google.clientSecret': 's-2' });
    assert.deepEqual(patch, { providers: { github: { clientId: 'id-1', enabled: false }, google: { clientSecret: 's-2', enabled: false } } });
    assert.equal(settingAt(patch, 'providers.github.clientId'), 'id-1');
    assert.equal(settingAt(patch, 'providers.github.clientSecret'), undefined);
  });
});
