import pino, { type Logger } from 'pino';
export declare const REDACTED_PATHS: string[];
/** The process logger: JSON lines, credentials redacted. */
export declare function createLogger(level: string, destination?: pino.DestinationStream): Logger;
/** A URL safe to log: the values of credential-like query parameters are replaced. */
export declare function redactUrl(url: string): string;
