"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseDurationSeconds = parseDurationSeconds;
/** Parses a lifetime such as `30d`, `12h`, `15m`, `3600s` or bare seconds into whole seconds; null when malformed. */
function parseDurationSeconds(input) {
    if (typeof input === 'number')
        return Number.isSafeInteger(input) && input >= 0 ? input : null;
    const match = /^\s*(\d{1,10})\s*([smhdw]?)\s*$/i.exec(input);
    if (!match)
        return null;
    const unit = match[2].toLowerCase();
    const factor = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[unit] ?? 1;
    const seconds = Number(match[1]) * factor;
    return Number.isSafeInteger(seconds) ? seconds : null;
}
//# sourceMappingURL=duration.js.map