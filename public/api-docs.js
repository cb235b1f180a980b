// Starts the OpenAPI viewer on /api/docs (views/api-docs.ejs) with the service's own document. A file, not
// an inline script, so the page needs nothing but script-src 'self' under the Content-Security-Policy. The
// base layout, without the standalone top bar: that bar's logo carries an inline <style> the policy refuses,
// and its URL box (to load another document) has no use here. Accessibility (WCAG 2.1 AA, proven by
// test/browser/api-docs.test.ts): deep links are off, because swagger-ui draws each operation's path as a
// link inside the button that opens it (a control nested in a control); and the server <select>, which
// swagger-ui draws without a name, is given one once the document is drawn.
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  window.ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [window.SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
    onComplete: function () {
      var servers = document.getElementById('servers');
      if (servers) servers.setAttribute('aria-label', 'Server');
    },
  });
})();
