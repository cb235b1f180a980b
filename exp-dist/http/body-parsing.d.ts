import { type RequestHandler } from 'express';
export declare const BODY_LIMIT = "100kb";
/**
 * JSON and urlencoded form bodies up to 100 kB. Any other body type is a 415 here; a request without a
 * body needs no content type. Whether a form is welcome is decided per endpoint (see api-router).
 */
export declare function bodyParsing(): RequestHandler[];
