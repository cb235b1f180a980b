/** UTF-16 surrogates without their other half: not characters, and encodeURIComponent throws on them. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A value echoed into a link's query string, percent-encoded; views have it as `urlParam`. A form that
 * comes back with its errors echoes what was posted, and encodeURIComponent alone throws (URIError) on
 * a lone surrogate (`"\ud800"` in a JSON body): a 500 where the page belongs. Such a half becomes U+FFFD;
 * anything but a string (a hostile body's arrays and objects) becomes ''.
 */
export function urlParam(value: unknown): string {
  return typeof value === 'string' ? encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD')) : '';
}
