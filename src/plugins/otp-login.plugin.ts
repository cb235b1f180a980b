import { z } from 'zod';
import { definePlugin } from './plugin-definition';

// CSS named colours (CSS Color Module Level 4), so a typo is caught when saved, not when mailed.
const NAMED_COLORS = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood ' +
    'cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray ' +
    'darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen ' +
    'darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue ' +
    'firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew ' +
    'hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan ' +
    'lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue ' +
    'mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred ' +
    'midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid ' +
    'palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple ' +
    'rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue ' +
    'slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white ' +
    'whitesmoke yellow yellowgreen transparent'
  ).split(' '),
);
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const RGB_COLOR = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(0|1|0?\.\d+)\s*)?\)$/i;

/** A colour safe to put into an email's inline style: hex, rgb()/rgba() or a CSS colour name. */
export function isCssColor(value: string): boolean {
  if (HEX_COLOR.test(value) || NAMED_COLORS.has(value.toLowerCase())) return true;
  const rgb = RGB_COLOR.exec(value);
  return rgb !== null && [rgb[1], rgb[2], rgb[3]].every((part) => Number(part) <= 255);
}

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048);
const intIn = (min: number, max: number) =>
  z.int({ message: `must be a whole number from ${min} to ${max}` }).min(min, { message: `must be at least ${min}` }).max(max, { message: `must be at most ${max}` });

/** SPEC 2.7 OTP plugin settings with CONTRACT 4's keys. */
export const otpLoginSettings = z.strictObject({
  codeLength: intIn(4, 8).default(6),
  codeExpiryMinutes: intIn(5, 60).default(10),
  maxAttempts: intIn(3, 10).default(3),
  rateLimitPerHour: intIn(1, 1000).default(5),
  allowNewUserRegistration: z.boolean({ message: 'must be true or false' }).default(false),
  logoUrl: httpUrl.optional(),
  logoWidth: intIn(20, 600).default(150),
  logoBorderWidth: intIn(0, 20).default(0),
  logoBorderColor: z.string().max(64).refine(isCssColor, { message: 'must be a hex, rgb() or named colour' }).default('#ffffff'),
  loginUrl: httpUrl.optional(),
  loginButtonText: z.string().min(1).max(100).optional(),
});
export type OtpLoginSettings = z.output<typeof otpLoginSettings>;

export const otpLoginPlugin = definePlugin({
  name: 'otp-login',
  description: 'Sign-in with a one-time code sent by email',
  settings: otpLoginSettings,
  secrets: [],
  // logoUrl and loginUrl are links in mails and pages: the service itself never connects to them.
  outboundUrls: [],
});
