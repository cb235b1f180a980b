/** Parses a lifetime such as `30d`, `12h`, `15m`, `3600s` or bare seconds into whole seconds; null when malformed. */
export declare function parseDurationSeconds(input: string | number): number | null;
