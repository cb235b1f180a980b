// Starts the OpenAPI viewer on /api/docs (views/api-docs.ejs) with the service's own document. A file, not
// an inline script, so the page needs nothing but script-src 'self' under the Content-Security-Policy. The
// base layout, without the standalone top bar: that bar's logo carries an inline <style> the policy refuses,
// and its URL box (to load another document) has no use here.
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  window.ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [window.SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
  });
})();
